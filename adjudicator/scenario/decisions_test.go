package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every run-time decision ordered by mail in the words postal players write, played
// through the engine: each phrasing replaces the orders lines of one robot in the
// scenario that tests the decision, and that scenario's expectations must hold. With
// the robot's orders taken out, or with a phrasing whose condition is false, at least
// one expectation must fail: the order is what makes them hold. The parser's reading of
// each phrasing is in orders/decisions_test.go.
var decisionPlays = []struct {
	scenario, robot string
	orders          []string // phrasings, each played alone
	fails           []string // phrasings under which an expectation must fail
}{
	{"220-orders-power-down-conditional", "A", []string{"If damaged to 6 or more, power down", "PD if damage >= 6",
		"power down if I have 6 or more damage", "If my damage reaches 6, power down", "power down if 6+ damage",
		"if damage > 5 then power down, else don't"}, []string{"If damaged to 10 or more, power down", "never power down"}},
	{"224-orders-stay-down", "A", []string{"stay powered down", "remain down", "keep powered down", "stay down next turn"},
		[]string{"don't stay down"}},
	{"200-sample-order-double-wrench", "B", []string{"on a double wrench take an option", "double wrench: take option",
		"take option instead of repair", "Take option card at double repair", "prefer option over repair"},
		[]string{"prefer repair"}},
	{"221-orders-prevent-with-named-option", "A", []string{"prevent damage with Turret", "sacrifice Turret instead of taking damage",
		"discard Turret before Brakes to prevent damage", "discard Turret to stop damage",
		"discard Turret to prevent damage only if damage would reach 1"},
		[]string{"discard Brakes before Turret to prevent damage", "discard Turret to survive"}},
	{"234-orders-prevent-when-damage-would-reach", "B", []string{"discard Brakes to prevent damage if damage would reach 9",
		"if damage would be 9 or more discard any option to prevent damage"},
		[]string{"discard Brakes to prevent damage if damage would reach 10", "discard any option to survive"}},
	{"222-orders-lose-named-option", "A", []string{"on destruction lose Turret", "if I die lose Turret",
		"lose Turret before Brakes", "discard Turret when destroyed", "if I have to lose an option, lose Turret"},
		[]string{"lose Brakes before Turret"}},
	{"223-orders-reenter-facing", "A", []string{"face south on re-entry", "re-enter facing S", "on re-entry: face south",
		"reenter on my archive facing south", "if destroyed, reenter facing S"}, []string{"reenter facing W"}},
	{"r23-142-reboot-facing-by-mailed-order", "A", []string{"reboot facing east", "on reboot face E", "if rebooting face E"},
		[]string{"reboot facing N"}},
	{"r23-141-shutdown-by-mailed-order", "A", []string{"PD", "shut down if damage >= 1", "shutdown if I have 1 spam"},
		[]string{"shut down if damage >= 2"}},
	{"r23-153-shutdown-if-damage-cards", "A", []string{"PD if damage > 1", "shut down if spam >= 2"}, []string{"shut down if spam > 2"}},
	{"303-brakes-stay-put", "A", []string{"Brakes reg 1", "R1: brakes", "register 1: use Brakes", "in register 1, use Brakes",
		"brake in the first register", "use Brakes in registers 1 and 3", "always use Brakes"},
		[]string{"use Brakes in registers 2 and 3", "never use Brakes"}},
	{"306-fourth-gear-moves-four", "A", []string{"4th gear", "Fourth Gear: always", "use Fourth Gear unless damage > 5"},
		[]string{"use Fourth Gear if damage > 5"}},
	{"309-reverse-gear-back-two", "A", []string{"use Reverse Gear to back up 2", "Reverse Gear back 2"}, nil},
	{"357-emergency-switch", "A", []string{"Abort Switch R2", "throw Emergency Switch in register 2"}, []string{"Abort Switch R3"}},
	{"360-conditional-command", "A", []string{"Conditional Command: P490 in register 2", "R2: Conditional Program P490"}, nil},
	{"354-gyro-gear", "A", []string{"gyro on", "turn on Gyroscopic Stabilizer", "use gyroscope"}, []string{"gyro off"}},
	{"369-target-control-destroy-option", "A", []string{"Fire Control on B to destroy Turret", "use Target Control on B destroy option Turret"}, nil},
	{"370-target-control-lock", "A", []string{"Fire Control: lock register 4"}, nil},
	{"345-turbo-blaster", "A", []string{"Turbo Blaster", "fire Turbo Blaster instead of my laser", "use Mini Howitzer"}, nil},
	{"339-high-pressor-beam-push", "A", []string{"use Pressor Beam", "Pressor Beam instead of laser"}, nil},
	{"341-high-pressor-beam-into-pit", "A", []string{"use pressor beam when target would be pushed into a pit"}, []string{"use pressor beam when target would be destroyed and damage > 9"}},
	{"375-remote-control", "A", []string{"use Radio Control on B", "Radio Control at B"}, []string{"use Radio Control on C"}},
	{"372-randomizer", "A", []string{"Scrambler R1", "use Scrambler in register 1"}, nil},
	{"342-tractor-beam-pull", "A", []string{"tractor beam instead of laser", "fire tractor beam"}, nil},
	{"704-big-gun-recoil-against-wall", "A", []string{"fire Big Gun at B"}, nil},
	{"760-drone-launcher-flies-and-pushes", "A", []string{"launch drone at B"}, nil},
	{"750-missile-launcher-table", "A", []string{"launch missile in register 1"}, nil},
	{"870-homing-device-tag", "A", []string{"use Homing Device tag B in register 2"}, nil},
	{"740-interceptor-token", "A", []string{"Interceptor on B"}, nil},
	{"348-protection-shield-side", "A", []string{"Shield left", "set shield to left", "Protection Shield: left"}, []string{"Shield right"}},
	{"336-turret-side", "A", []string{"Turret right", "turn turret to the right", "point turret right"}, []string{"Turret left"}},
	{"337-turret-compass", "A", []string{"turret facing W", "point turret west"}, nil},
	{"366-recompile", "A", []string{"recompile", "recompile if damage < 9"}, nil},
	{"363-flywheel-keeps-card", "A", []string{"Flywheel P490", "use Flywheel on P490"}, nil},
	{"721-reflector-other-side", "A", []string{"Reflector back"}, nil},
	{"775-mine-layer-another-robot-sets-it-off", "A", []string{"lay a mine in register 1", "R1: Mine Layer"}, nil},
	{"765-goo-holds-robot", "A", []string{"drop goo in register 1"}, nil},
	{"758-big-one-pushes-robot", "C", []string{"drop the big one in register 1"}, nil},
	{"793-big-jet-flies-eight", "A", []string{"Big Jet reg 1"}, nil},
	{"796-retro-rockets-fly-back", "A", []string{"retro rockets R1 2 fuel"}, nil},
	{"800-crab-legs-left", "A", []string{"R1: Crab Legs P070", "Crab Legs R1 with P070"}, nil},
	{"840-self-destruct", "A", []string{"self destruct R2"}, nil},
	{"r23-154-deflector-if-energy", "A", []string{"Deflector Shield", "use Deflector Shield if I have at least 3 energy"},
		[]string{"use Deflector Shield if energy > 3"}},
	{"r23-112-mini-howitzer", "A", []string{"Mini Howitzer R2"}, nil},
	{"r23-101-zoop", "A", []string{"Zoop E R2", "Zoop east in reg 2"}, nil},
	{"r23-118-boink", "A", []string{"Boink S R1"}, nil},
	{"r23-120-recharge", "A", []string{"recharge in register 2", "Recharge R2"}, nil},
	{"r23-117-abort-switch", "A", []string{"Abort Switch R1"}, nil},
	{"225-orders-keep-archive", "A", []string{"don't move my archive", "keep archive"}, nil},
}

func TestDecisionsPlayedAsWritten(t *testing.T) {
	for _, tc := range decisionPlays {
		b, err := os.ReadFile(filepath.Join(scenarioDir, tc.scenario+".scn"))
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`(?m)^orders ` + tc.robot + `:.*\n`)
		if !re.Match(b) {
			t.Fatalf("%s: no orders line for %s", tc.scenario, tc.robot)
		}
		with := func(order string) string {
			text := string(b)
			if order == "" {
				return re.ReplaceAllString(text, "")
			}
			first := true
			return re.ReplaceAllStringFunc(text, func(string) string {
				if !first {
					return ""
				}
				first = false
				return "orders " + tc.robot + ": " + order + "\n"
			})
		}
		run := func(t *testing.T, order string) []string {
			t.Helper()
			sc, err := Parse(tc.scenario+".scn", with(order))
			if err != nil {
				t.Fatal(err)
			}
			r, err := sc.Run()
			if err != nil {
				t.Fatal(err)
			}
			return sc.Check(r)
		}
		for _, o := range tc.orders {
			t.Run(tc.scenario+"/"+o, func(t *testing.T) {
				if bad := run(t, o); len(bad) > 0 {
					t.Errorf("%s", strings.Join(bad, "\n"))
				}
			})
		}
		for _, o := range append([]string{""}, tc.fails...) {
			t.Run(tc.scenario+"/not/"+o, func(t *testing.T) {
				if bad := run(t, o); len(bad) == 0 {
					t.Errorf("every expectation holds with the orders %q: the scenario does not tell the order apart", o)
				}
			})
		}
	}
}
