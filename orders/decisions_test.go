package orders

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every run-time decision a face-to-face player makes (rules README, "Decisions a
// face-to-face player makes at run time") ordered by mail in the words postal players
// write: each phrasing and the orders it must read as, in canonical text (one order per
// " | "). Where a phrasing is ambiguous it is refused with an error that names the
// accepted form. adjudicator/scenario/decisions_test.go plays them through the engine.
var decisionPhrasings = []struct {
	decision string
	in       string
	want     string // canonical orders, " | " between them; "" with err
	err      string // a part of the error, for a refused phrasing
}{
	// Power down next turn.
	{"power down", "If damaged to 8 or more, power down", "if damage >= 8 then power down", ""},
	{"power down", "power down if damage >= 8", "if damage >= 8 then power down", ""},
	{"power down", "PD next turn", "power down", ""},
	{"power down", "PD if dmg > 4", "if damage > 4 then power down", ""},
	{"power down", "If my damage reaches 8, power down", "if damage >= 8 then power down", ""},
	{"power down", "Power down if I have 5 or more damage", "if damage >= 5 then power down", ""},
	{"power down", "power down if 4+ damage", "if damage >= 4 then power down", ""},
	{"power down", "power down if damaged", "if damage > 0 then power down", ""},
	{"power down", "Announce power down if damage >= 4", "if damage >= 4 then power down", ""},
	{"power down", "power down this turn", "power down", ""},
	{"power down", "if damage > 4 then power down, else don't", "if damage > 4 then power down else come back up", ""},
	{"power down", "never power down", "come back up", ""},
	{"power down", "power down if lives = 1 and damage > 2", "if lives = 1 and damage > 2 then power down", ""},
	{"power down", "shut down if damage >= 3", "if damage >= 3 then power down", ""},        // 2023: damage cards held
	{"power down", "shutdown if I have 3 spam or more", "if spam >= 3 then power down", ""}, // 2023
	// Stay powered down.
	{"stay down", "stay down", "stay down", ""},
	{"stay down", "stay powered down if damage > 0", "if damage > 0 then stay down", ""},
	{"stay down", "remain down if lives < 2", "if lives < 2 then stay down", ""},
	{"stay down", "don't stay down", "come back up", ""},
	{"stay down", "come back online", "come back up", ""},
	// Double wrench: repair or option.
	{"double wrench", "If I finish on 2 spanner repair & damage > 3 repair, else take option card.",
		"if on a double repair site and damage > 3 then repair else take option", ""},
	{"double wrench", "on a double wrench take an option", "if on a double repair site then take option", ""},
	{"double wrench", "double wrench: take option", "if on a double repair site then take option", ""},
	{"double wrench", "on a double wrench, repair if damage > 2 else option",
		"if on a double repair site and damage > 2 then repair else take option", ""},
	{"double wrench", "Take option card at double repair", "if on a double repair site then take option", ""},
	{"double wrench", "take option instead of repair", "take option", ""},
	{"double wrench", "prefer option over repair", "take option", ""},
	{"double wrench", "take the option card if I hold fewer than 3 options", "if options < 3 then take option", ""},
	{"double wrench", "take option if damage < 3, else don't", "if damage < 3 then take option else repair", ""},
	// Discard an option to prevent damage: which, and when.
	{"prevent damage", "discard Brakes to prevent damage", "discard Brakes to prevent damage", ""},
	{"prevent damage", "discard Brakes before Shield to prevent damage",
		"discard Brakes to prevent damage | discard Protection Shield to prevent damage", ""},
	{"prevent damage", "discard Brakes before Shield to prevent damage only if damage would reach 9",
		"if damage would be >= 9 then discard Brakes to prevent damage | if damage would be >= 9 then discard Protection Shield to prevent damage", ""},
	{"prevent damage", "discard Brakes, then Turret, to prevent damage if damage > 6",
		"if damage > 6 then discard Brakes to prevent damage | if damage > 6 then discard Turret to prevent damage", ""},
	{"prevent damage", "if damage would reach 10 discard any option to prevent damage",
		"if damage would be >= 10 then discard any option to prevent damage", ""},
	{"prevent damage", "discard Brakes to prevent damage if I would be destroyed",
		"if I would be destroyed then discard Brakes to prevent damage", ""},
	{"prevent damage", "discard any option to survive", "if I would be destroyed then discard any option to prevent damage", ""},
	{"prevent damage", "prevent death with Brakes", "if I would be destroyed then discard Brakes to prevent damage", ""},
	{"prevent damage", "sacrifice Brakes instead of taking damage", "discard Brakes to prevent damage", ""},
	{"prevent damage", "discard Brakes to stop damage", "discard Brakes to prevent damage", ""},
	{"prevent damage", "never discard options", "keep options", ""},
	{"prevent damage", "discard Brakes before Shield", "", "says not when"},
	{"prevent damage", "sacrifice Turret", "", "discard OPTION to prevent damage"},
	// Which option to lose when destroyed.
	{"lose option", "when destroyed lose Brakes", "if destroyed then lose Brakes", ""},
	{"lose option", "lose Brakes before Turret", "lose Brakes | lose Turret", ""},
	{"lose option", "on destruction lose Brakes", "if destroyed then lose Brakes", ""},
	{"lose option", "if I die lose Brakes", "if destroyed then lose Brakes", ""},
	{"lose option", "discard Brakes when destroyed", "if destroyed then lose Brakes", ""},
	{"lose option", "if I have to lose an option, lose Brakes", "lose Brakes", ""},
	// Re-entry facing (the square is not chosen in these rules).
	{"re-entry", "reenter facing north", "reenter facing N", ""},
	{"re-entry", "face north on re-entry", "reenter facing N", ""},
	{"re-entry", "on re-entry face the next flag", "reenter facing toward the next flag", ""},
	{"re-entry", "reboot facing E", "reenter facing E", ""},
	{"re-entry", "if next to a pit reenter facing W", "if next to a pit then reenter facing W", ""},
	{"re-entry", "reenter on my archive facing N", "reenter facing N", ""},
	{"re-entry", "reenter at 3,4 facing N", "", "the square a robot re-enters on is not chosen"},
	// Brakes.
	{"Brakes", "use Brakes in register 3", "use Brakes in register 3", ""},
	{"Brakes", "Brakes reg 3", "use Brakes in register 3", ""},
	{"Brakes", "R3: brakes", "use Brakes in register 3", ""},
	{"Brakes", "register 3: use Brakes", "use Brakes in register 3", ""},
	{"Brakes", "in register 3, use Brakes", "use Brakes in register 3", ""},
	{"Brakes", "use Brakes in the third register", "use Brakes in register 3", ""},
	{"Brakes", "brake if next to a pit", "if next to a pit then use Brakes", ""},
	{"Brakes", "use Brakes in registers 2 and 4", "use Brakes in register 2 | use Brakes in register 4", ""},
	{"Brakes", "always use Brakes", "use Brakes", ""},
	{"Brakes", "never use Brakes", "don't use Brakes", ""},
	// Fourth Gear, Reverse Gear.
	{"Fourth Gear", "4th gear in register 2", "use Fourth Gear in register 2", ""},
	{"Fourth Gear", "Fourth Gear: always", "use Fourth Gear", ""},
	{"Fourth Gear", "use Fourth Gear unless next to a pit", "if not next to a pit then use Fourth Gear", ""},
	{"Reverse Gear", "use Reverse Gear to back up 2", "use Reverse Gear 2 squares", ""},
	{"Reverse Gear", "reverse gear in register 4", "use Reverse Gear in register 4", ""},
	// Emergency Switch / Abort Switch.
	{"Emergency Switch", "Abort Switch R3", "use Emergency Switch in register 3", ""},
	{"Emergency Switch", "throw Emergency Switch in register 3", "use Emergency Switch in register 3", ""},
	{"Emergency Switch", "flip the emergency switch if damage > 4", "if damage > 4 then use Emergency Switch", ""},
	// Conditional Command.
	{"Conditional Command", "Conditional Command: P490 in register 4", "use Conditional Command in register 4 P490", ""},
	{"Conditional Command", "use Conditional Program P490 if damage > 4", "if damage > 4 then use Conditional Command P490", ""},
	// Gyroscopic Stabilizer.
	{"Gyroscopic Stabilizer", "gyro on", "use Gyroscopic Stabilisator", ""},
	{"Gyroscopic Stabilizer", "turn on Gyroscopic Stabilizer in register 2", "use Gyroscopic Stabilisator in register 2", ""},
	{"Gyroscopic Stabilizer", "Shield off", "don't use Protection Shield", ""},
	// Target / Fire Control.
	{"Target Control", "Fire Control: lock register 3", "use Target Control lock register 3", ""},
	{"Target Control", "use Target Control on Twonky to destroy Brakes", "use Target Control option Brakes on Twonky", ""},
	// Weapons instead of the main laser.
	{"Turbo Blaster", "Turbo Blaster on Twonky", "use Turbo Blaster on Twonky", ""},
	{"Turbo Blaster", "fire Turbo Blaster instead of my laser at Twonky", "use Turbo Blaster on Twonky", ""},
	{"Turbo Blaster", "use Mini Howitzer if target would fall", "if target would fall into a pit then use Turbo Blaster", ""},
	{"Pressor Beam", "use pressor beam when target would be pushed into a pit", "if target would fall into a pit then use High Pressor Beam", ""},
	{"Radio Control", "use Radio Control on Twonky in register 2", "use Remote Control in register 2 on Twonky", ""},
	{"Scrambler", "Scrambler on Twonky", "use Randomizer on Twonky", ""},
	{"Tractor Beam", "use tractor beam if target would fall", "if target would fall into a pit then use Tractor Beam", ""},
	{"Tractor Beam", "use tractor bean", "", "did you mean Tractor Beam"},
	{"Big Gun", "fire Big Gun at Twonky", "use Big Gun on Twonky", ""},
	{"Drone Launcher", "launch drone at Twonky", "use Drone Launcher on Twonky", ""},
	{"Missile Launcher", "fire missile at Twonky", "use Missile Launcher on Twonky", ""},
	{"Homing Device", "use Homing Device tag Twonky", "use Homing Device tag on Twonky", ""},
	{"Homing Device", "use Homing Device home", "use Homing Device home", ""},
	{"Interceptor", "use Interceptor on Twonky", "use Interceptor on Twonky", ""},
	// Shield and Turret directions.
	{"Shield", "Shield left", "use Protection Shield left", ""},
	{"Shield", "set shield to back in register 3", "use Protection Shield back in register 3", ""},
	{"Turret", "Turret: back", "use Turret back", ""},
	{"Turret", "point turret west", "use Turret W", ""},
	{"Turret", "turn turret to the left in reg 2", "use Turret left in register 2", ""},
	{"Reflector", "Reflector back", "use Reflector back", ""},
	// Recompile, Flywheel.
	{"Recompile", "recompile if damage < 3", "if damage < 3 then use Recompile", ""},
	{"Flywheel", "Flywheel P790", "use Flywheel P790", ""},
	{"Flywheel", "use Flywheel on P790", "use Flywheel P790", ""},
	// Phase-programmed options: which register, which target.
	{"Mine Layer", "lay a mine in register 3", "use Mine Layer in register 3", ""},
	{"Mine Layer", "R3: Mine Layer", "use Mine Layer in register 3", ""},
	{"Mine Layer", "use Mine Layer in registers 2 and 4", "use Mine Layer in register 2 | use Mine Layer in register 4", ""},
	{"Goo Dropper", "drop goo in register 2", "use Goo Dropper in register 2", ""},
	{"The Big One", "drop the big one in register 5", "use The Big One in register 5", ""},
	{"Big Jet", "Big Jet reg 3", "use Big Jet in register 3", ""},
	{"Retro-Rockets", "retro rockets R4 2 fuel", "use Retro-Rockets in register 4 fuel 2", ""},
	{"Crab Legs", "R2: Crab Legs P490", "use Crab Legs in register 2 P490", ""},
	{"Crab Legs", "Crab Legs R2 with P490", "use Crab Legs in register 2 P490", ""},
	{"Self-Destruct", "self destruct R5", "use Self-Destruct in register 5", ""},
	// The 2023 upgrades (seed 004): energy spent, upgrades bought.
	{"Deflector Shield", "use Deflector Shield if energy > 2", "if energy > 2 then use Deflector Shield", ""},
	{"Mini Howitzer", "use Mini Howitzer on Twonky if I have at least 2 energy", "if energy >= 2 then use Turbo Blaster on Twonky", ""},
	{"Zoop", "Zoop S R2", "use Zoop S in register 2", ""},
	{"Boink", "Boink east in reg 4", "use Boink E in register 4", ""},
	{"Recharge", "recharge in register 1", "use Recharge in register 1", ""},
	{"Recharge", "recharge Turbo Blaster", "recharge Turbo Blaster", ""}, // the chop shop's order
	{"upgrade", "buy Zoop", "install Zoop", ""},
	{"upgrade", "buy an upgrade", "draw upgrade", ""},
}

func TestDecisionPhrasings(t *testing.T) {
	for _, tc := range decisionPhrasings {
		t.Run(tc.decision+"/"+tc.in, func(t *testing.T) {
			rs, err := ParseRules(tc.in, 1)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v (%v), want an error with %q", rs, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.String())
				// The canonical text reads back as the same order.
				back, err := ParseRule(r.String(), 1)
				a, _ := json.Marshal(r)
				b, _ := json.Marshal(back)
				if err != nil || string(a) != string(b) {
					t.Errorf("canonical %q reads back as %s (%v), want %s", r.String(), b, err, a)
				}
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Fatalf("read as %q, want %q", g, tc.want)
			}
		})
	}
}

// The same phrasings as YAML sheets: an item of orders: as a string, and as the mapping
// YAML makes of a line with ": " in it, read as the line.
func TestDecisionPhrasingsYAML(t *testing.T) {
	for _, tc := range decisionPhrasings {
		if tc.err != "" {
			continue
		}
		t.Run(tc.decision+"/"+tc.in, func(t *testing.T) {
			text, err := Parse([]byte("Fred Turn 3\n" + tc.in + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			quoted, _ := json.Marshal(tc.in) // a JSON string is a YAML string
			forms := []string{"---\nrobot: Fred\nturn: 3\norders:\n  - " + string(quoted) + "\n"}
			if !strings.ContainsAny(tc.in, "&#'\"[]{}*!|>%@`") && strings.Count(tc.in, ": ") == 1 {
				forms = append(forms, "---\nrobot: Fred\nturn: 3\norders:\n  - "+tc.in+"\n") // read as a mapping
			}
			want, _ := json.Marshal(text.Rules)
			for _, y := range forms {
				s, err := Parse([]byte(y))
				if err != nil {
					t.Fatalf("%s: %v", y, err)
				}
				got, _ := json.Marshal(s.Rules)
				if string(got) != string(want) {
					t.Errorf("%s: got %s, want %s", y, got, want)
				}
			}
		})
	}
}

// A YAML if/then/else with "else: don't" is the other answer of the decision, as in text.
func TestYAMLElseDont(t *testing.T) {
	s, err := Parse([]byte("---\nrobot: Fred\norders:\n  - if: damage > 4\n    then: power down\n    else: don't\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Rules[0].String(); got != "if damage > 4 then power down else come back up" {
		t.Fatalf("got %q", got)
	}
	_, err = Parse([]byte("---\nrobot: Fred\norders:\n  - if: damage > 4\n    then: reenter facing N\n    else: don't\n"))
	if err == nil || !strings.Contains(err.Error(), "write what to do instead") {
		t.Fatalf("got %v, want an error that says what to write", err)
	}
}

// "R3: brakes" on a text sheet is an order for register 3, not a program card; "R3:
// P490" stays a program line.
func TestRegisterLabelOrders(t *testing.T) {
	s, err := Parse([]byte("Fred Turn 3\nR1: P490\nR2: P670\nR3: P70\nR4: P80\nR5: P430\nR3: brakes\n3: Fourth Gear\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Program) != 5 || s.Program[2].Priority != 70 {
		t.Fatalf("program %v", s.Program)
	}
	var got []string
	for _, r := range s.Rules {
		got = append(got, r.String())
	}
	if g := strings.Join(got, " | "); g != "use Brakes in register 3 | use Fourth Gear in register 3" {
		t.Fatalf("orders %q", g)
	}
}
