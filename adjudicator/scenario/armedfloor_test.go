package scenario

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// armedFloorElements are seed 001's board elements (Board Element Overview) and what
// marks a scenario as showing one: a token of its board (docs/boards.md), and for
// ledges the word in its title or source (a ledge is any level edge without a ramp).
var armedFloorElements = []struct {
	name string
	has  func(tokens []string, text string) bool
}{
	{"water", func(tk []string, _ string) bool { return hasElem(tk, func(e string) bool { return e == "~" }) }},
	{"currents", func(tk []string, _ string) bool {
		return hasElem(tk, func(e string) bool { return len(e) == 2 && e[0] == '~' })
	}},
	{"teleporters", func(tk []string, _ string) bool { return hasElem(tk, func(e string) bool { return e == "T" }) }},
	{"randomizers", func(tk []string, _ string) bool { return hasElem(tk, func(e string) bool { return e == "?" }) }},
	{"drains", func(tk []string, _ string) bool { return hasElem(tk, func(e string) bool { return e == "D" }) }},
	{"levels", func(tk []string, _ string) bool { return hasElem(tk, isLevel) }},
	{"ramps", func(tk []string, _ string) bool {
		return hasElem(tk, func(e string) bool { return len(e) >= 2 && e[0] == 'r' && strings.Trim(e[1:], "NESW") == "" })
	}},
	{"ledges", func(tk []string, text string) bool {
		return hasElem(tk, isLevel) && strings.Contains(strings.ToLower(text), "ledge")
	}},
}

func isLevel(e string) bool { return e == "h1" || e == "h2" || e == "h3" }

// hasElem reports whether any square token holds an element matching is.
func hasElem(tokens []string, is func(string) bool) bool {
	for _, tok := range tokens {
		tok, _, _ = strings.Cut(tok, "|")
		for _, e := range strings.Split(tok, "+") {
			if is(e) {
				return true
			}
		}
	}
	return false
}

// armedScenario is what the audit reads of a scenario file.
type armedScenario struct {
	file   string
	text   string // title and source
	cites  bool   // its source cites seed 001
	tokens []string
}

func readArmedScenarios(t *testing.T) []armedScenario {
	t.Helper()
	var out []armedScenario
	for _, f := range scenarioFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := armedScenario{file: filepath.Base(f)}
		inBoard := false
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "title:"):
				s.text += line + "\n"
			case strings.HasPrefix(line, "source:"):
				s.text += line + "\n"
				s.cites = strings.Contains(line, "seed 001")
			case strings.HasPrefix(line, "board:"):
				inBoard = true
				continue
			}
			if inBoard {
				if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
					inBoard = false
					continue
				}
				s.tokens = append(s.tokens, strings.Fields(line)...)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestArmedFloorHasScenarios: issue 10 asks for at least four scenarios citing seed 001
// for every element of its floor. It counts, from the scenario files, those whose board
// holds the element (go test -v -run ArmedFloor prints the counts).
func TestArmedFloorHasScenarios(t *testing.T) {
	all := readArmedScenarios(t)
	for _, el := range armedFloorElements {
		var files []string
		for _, s := range all {
			if s.cites && el.has(s.tokens, s.text) {
				files = append(files, s.file)
			}
		}
		sort.Strings(files)
		t.Logf("%-12s %2d scenarios citing seed 001", el.name, len(files))
		if len(files) < 4 {
			t.Errorf("%s: %d scenarios citing seed 001 (%s); want at least 4", el.name, len(files), strings.Join(files, ", "))
		}
	}
}

// TestArmedWorkedExamples: every worked example of seed 001 is a scenario. Each entry
// names the example and the scenario that plays it; the file must exist, cite seed 001
// and have the example's element on its board (or be a blast check).
func TestArmedWorkedExamples(t *testing.T) {
	examples := []ruleCase{
		{"Water: a Move 1 in water does not move", "600-water-move-1-does-not-move.scn"},
		{"Water: a Move 3 in water moves 2", "601-water-move-3-moves-2.scn"},
		{"Water: a robot in water pushed moves normally", "602-water-pushed-robot-moves-normally.scn"},
		{"Teleporters: Back Up 2", "633-teleporter-back-up-two.scn"},
		{"Teleporters: Move 1 moves 3", "630-teleporter-move-1-three.scn"},
		{"Teleporters: Move 2 moves 4", "631-teleporter-move-2-four.scn"},
		{"Teleporters: Move 3 moves 5", "632-teleporter-move-3-five.scn"},
		{"Teleporters: pushed off before its card, no teleport", "634-teleporter-pushed-off-first.scn"},
		{"Teleporters: Retro-Rockets off a teleporter, then the Move 1", "910-teleporter-retro-rockets-then-move-1.scn"},
		{"Explosive damage: power 2 at distances 0-3", "662-explosion-power-2-distances.scn"},
		{"Explosive damage: power 4 at distances 0-3", "660-explosion-power-4-distances.scn"},
		{"Explosive damage: power 16 at distances 0-5", "661-explosion-power-16-distances.scn"},
		{"Explosive damage: power 64 at distances 0-7", "663-explosion-power-64-distances.scn"},
		{"Explosive damage: walls give limited protection (Zoom Bot 3 squares away)", "664-explosion-around-a-wall.scn"},
		{"Explosive damage: a diagonal is 2 squares, behind a wall 3", "923-explosion-diagonal-two-wall-three.scn"},
		{"Explosive damage: both robots 4 squares away around walls", "924-explosion-walled-pocket-four.scn"},
		{"Explosive damage: a level counts as a square", "665-explosion-between-levels.scn"},
		{"Ramps: robots pushed up a ramp, the one left on it slides back", "650-ramp-example-three-robots.scn"},
		{"Ramps: a robot moving up a ramp counts it as a square", "911-ramp-up-counts-a-square.scn"},
		{"Ramps: a robot moving down a ramp, no effect", "532-ramp-down-no-damage.scn"},
		{"Devices: a robot lays a mine and moves away", "775-mine-layer-another-robot-sets-it-off.scn"},
		{"Devices: the launching robot stays on its mine until the lasers", "776-mine-layer-launcher-stays-on-mine.scn"},
		{"Devices: another robot moves over the mine, then goes on", "777-mine-robot-goes-on-moving.scn"},
		{"Landing: Big Jet onto a robot, the next open square", "794-big-jet-lands-beside-robot.scn"},
		{"Destruction: Mine Layer destroyed, the programmed mine stays", "779-mine-layer-destroyed-program-stays.scn"},
		{"Destruction: Crab Legs exchanged, its program still runs", "913-crab-legs-exchanged-program-stays.scn"},
		{"Primary card: Overload Override's empty register locks its Move 2", "821-overload-override-empty-register-locks-primary.scn"},
		{"Primary card: Radio Control plays the primary cards", "823-overload-override-remote-control-plays-primary.scn"},
		{"Currents: water and a current in the same register", "613-current-water-and-flow.scn"},
		{"Devices: a virtual robot's device meets only it", "918-virtual-robot-mine-meets-only-it.scn"},
		{"Devices: virtual devices leave when their robot becomes real", "919-virtual-devices-removed-when-real.scn"},
		{"Randomizers: the extra card of Crab Legs is discarded too", "920-randomizer-discards-crab-legs-card.scn"},
		{"Explosive damage: a flying robot on the same level, counted normally", "921-flying-robot-blast-same-level.scn"},
		{"Launchers: unlaunched mines explode separately when the card is lost", "755-explosion-sets-off-lost-launcher.scn"},
		{"Phase programs: Bridge Layer in front of no pit keeps its token", "785-bridge-layer-illegal-keeps-token.scn"},
		{"Phase programs: Crab Legs on a teleporter plays the primary card", "802-crab-legs-on-teleporter.scn"},
	}
	checkArmedCases(t, examples)
}

// TestArmedRuleStatements: seed 001's rule sentences, read statement by statement (the
// option cards' texts, their timing, range, who they touch, what happens when they are
// lost, their meetings with walls, pits, edges, virtual robots and other options), each
// with the scenario that plays it, so that a lost scenario fails here. The worked
// examples are TestArmedWorkedExamples'.
func TestArmedRuleStatements(t *testing.T) {
	statements := []ruleCase{
		// Phase-Programmed Options
		{"Programming: one token of an option a register; a device faces the robot's way", "968-one-mine-a-register-facing.scn"},
		{"Types: one gadget a register (Mine Layer and Bridge Layer, the card held first kept)", "925-gadgets-one-a-register.scn"},
		{"Types: one movement option a register", "812-dual-processor-one-movement-option-a-register.scn"},
		{"Types: a gadget and a movement option share a register (a mine, then Crab Legs off it)", "926-mine-then-crab-legs-off-it.scn"},
		{"Destruction: Big Jet lost after its counter was programmed, no explosion, the jet flies", "969-big-jet-lost-after-programmed.scn"},
		// Devices, Launchers, Boosters
		{"Devices: virtual robots meet every real device", "927-virtual-robot-sets-off-real-mine.scn"},
		{"Devices: active for the launching robot from its register's lasers on", "967-mine-owner-returns-later-register.scn"},
		{"Devices: flat devices are not pushed by pushers", "938-pushers-leave-flat-devices.scn"},
		{"Devices: flat devices are not set off by other devices (a missile over a mine)", "934-missile-over-mine-and-missile.scn"},
		{"Devices: flat devices are not set off by other devices (The Big One pushed onto a mine)", "975-big-one-pushed-over-mine.scn"},
		{"Devices: flat devices are not set off by flying robots", "974-robo-copter-over-mine.scn"},
		{"Devices: flying devices are not affected by teleporters or gears", "973-buzz-bomb-over-teleporter-and-gear.scn"},
		{"Devices: devices take no damage; a mine does not stop a laser", "972-laser-over-a-mine.scn"},
		{"Launchers: a spent launcher and booster are exchanged for damage without exploding", "928-empty-launcher-and-booster-no-explosion.scn"},
		{"Launchers: launchers of devices that cannot explode do not explode when lost", "979-launchers-without-explosives-lost.scn"},
		{"Launchers: a lost Drone Launcher's drones explode separately", "980-drone-launcher-lost-explodes.scn"},
		{"Launchers: a lost Proximity Mine's mines explode", "981-proximity-mine-layer-lost-explodes.scn"},
		{"Boosters: Retro-Rockets lost explode for the counters not programmed only", "978-retro-rockets-lost-partly-programmed.scn"},
		// Flying and landing
		{"Flying: a flying robot touches flags on its level", "947-robo-copter-touches-flag.scn"},
		{"Flying: not affected by gears or currents", "948-robo-copter-gear-current.scn"},
		{"Flying: not affected by teleporters or randomizers", "949-robo-copter-over-teleporter-randomizer.scn"},
		{"Flying: affected by pushers (Robo-Copter pushed lands)", "944-robo-copter-pushed-by-pusher-lands.scn"},
		{"Flying: affected by other robots (Robo-Copter pushed lands)", "945-robo-copter-pushed-by-robot-lands.scn"},
		{"Landing: a robot landing on a mine at the end of the turn sets it off", "976-robo-copter-lands-on-mine.scn"},
		// Complete Listing of Option Cards
		{"Big Jet: not between levels", "942-big-jet-not-between-levels.scn"},
		{"The Big One: a crusher sets it off", "929-big-one-crusher-explodes.scn"},
		{"The Big One: a pit takes it without an explosion", "930-big-one-pushed-into-pit.scn"},
		{"Bridge Layer: not across a wall", "977-bridge-layer-wall-in-front.scn"},
		{"Buzz Bomb: a crusher sets it off", "931-buzz-bomb-crusher-explodes.scn"},
		{"Buzz Bomb: one in play at a time", "932-buzz-bomb-one-in-play.scn"},
		{"Converter: Back Up backs up 2, Move 3 moves 4", "853-converter-back-up-and-move-3.scn"},
		{"Drone Launcher: a crusher sets a drone off; drones pass through flying devices", "935-drone-crusher-explodes.scn"},
		{"Drone Launcher: the target counter is not moved by the board", "936-drone-target-counter-stays.scn"},
		{"Dual Processor: only the table's combinations", "813-dual-processor-move-1-not-in-table.scn"},
		{"Dual Processor: Move 2 with Rotate Right, Move 3 with Rotate Left", "814-dual-processor-move-2-rotate-right.scn"},
		{"Frog Legs: not while flying", "943-frog-legs-not-while-flying.scn"},
		{"Goo Dropper: not in water or on a teleporter", "937-goo-not-in-water-or-teleporter.scn"},
		{"Goo Dropper: not on a conveyor belt", "768-goo-not-on-belt.scn"},
		{"Missile Launcher: a pusher sets a missile off", "933-missile-pusher-explodes.scn"},
		{"Option Damping Field: fuel programmed inside the field is discarded", "833-option-damping-field-fuel-lost.scn"},
		{"Option Damping Field: devices already launched keep working", "970-option-damping-field-mine-still-works.scn"},
		{"Portable Teleporter: a pit destroys it, lasers pass it", "940-portable-teleporter-pit-laser.scn"},
		{"Proximity Mine: a flying robot passing does not set it off", "939-proximity-mine-flying-robot-passes.scn"},
		{"Robo-Copter: no rotate card on it", "946-robo-copter-no-rotate-card.scn"},
		{"Scrambler Bomb: a crusher destroys it without setting it off", "941-scrambler-bomb-crusher.scn"},
		// Board Element Overview
		{"Randomizers: Overload Override's extra card is discarded", "982-randomizer-discards-overload-card.scn"},
		{"Teleporters: a robot driving over one is not teleported", "971-teleporter-passed-over.scn"},
		// Audit, continued
		{"Big Jet: off the board, lost", "983-big-jet-off-the-board.scn"},
		{"Landing: onto a robot with a wall beyond, back along the flight (R-AD-LANDING-WALL)", "984-big-jet-lands-on-robot-before-wall.scn"},
		{"Devices: a real mine's blast hurts a virtual robot", "985-virtual-robot-hurt-by-real-mine.scn"},
		{"Option Damping Field: a mine programmed inside the field is discarded", "986-option-damping-field-mine-token-lost.scn"},
		{"Option Damping Field: 3 squares in, 4 out", "987-option-damping-field-three-squares.scn"},
		{"Crab Legs: not with a U-Turn", "805-crab-legs-not-with-u-turn.scn"},
		{"Mine Layer: a belt carries a robot onto a mine", "988-belt-carries-robot-onto-mine.scn"},
		{"Proximity Mine: a belt carries a robot within a square", "989-proximity-mine-belt-carries-robot-near.scn"},
		{"Buzz Bomb: a robot drives into it", "990-robot-drives-into-buzz-bomb.scn"},
		{"Self-Destruct: lost with its robot in a pit, it explodes", "991-self-destruct-lost-with-robot.scn"},
		{"Bio Option: the Bio Option itself exchanged takes the other along", "992-bio-option-card-exchanged.scn"},
		{"Overload Override: a point of damage each use", "993-overload-override-two-uses-two-damage.scn"},
		{"Frog Legs: over a mine without setting it off", "994-frog-legs-over-a-mine.scn"},
		{"Devices: currents carry devices, gears turn The Big One", "995-mine-in-current-big-one-on-gear.scn"},
		{"Water: a homing move is no movement card and is not slowed", "996-homing-move-in-water.scn"},
		{"Portable Teleporter: pushers leave it", "997-pusher-leaves-portable-teleporter.scn"},
		{"Landing: a flying robot pushes robots and flies on", "998-robo-copter-pushes-robot-flies-on.scn"},
		{"Teleporters: Converter spends no counter there", "854-converter-on-teleporter-spends-none.scn"},
		{"Bio-Bots: the Bio Option itself is not exchanged to prevent damage", "894-bio-bots-bio-option-not-exchanged.scn"},
		{"Primary card: Crab Legs' Move 1 from the hand is what a locked register keeps", "806-crab-legs-locked-keeps-move-1.scn"},
		{"The Big One: blocks sight between robots only, board lasers pass (R-AD-BIGONE-SIGHT)", "1000-big-one-board-laser-passes.scn"},
		{"Explosive Damage: one more square for each level between (R-AD-BLAST-LEVELS)", "1001-explosion-two-levels-down.scn"},
		{"Flying: a flying robot does not go down a ramp", "1002-robo-copter-not-down-a-ramp.scn"},
		{"Devices: crushers set mines off and destroy goo", "1003-crusher-mine-explodes-goo-destroyed.scn"},
		{"Programming: an illegal program keeps its token for later", "1004-bridge-token-kept-used-later.scn"},
		{"Homing Device: blocked by a wall, it turns left", "875-homing-device-wall-turns-left.scn"},
		{"Big Gun: the recoil pushes the robot into a pit", "706-big-gun-recoil-into-pit.scn"},
		{"Crab Legs: the step is a Move 1's, water negates it", "807-crab-legs-in-water.scn"},
		{"Dual Processor: in water the first square is negated", "815-dual-processor-in-water.scn"},
		{"Converter: in water, Move 1 made Move 2 moves 1", "855-converter-in-water.scn"},
		{"Overload Override: two cards on a teleporter are illegal", "824-overload-override-on-teleporter.scn"},
		{"Option Damping Field: deactivates a Converter", "834-option-damping-field-stops-converter.scn"},
		{"Option Damping Field: a Robo-Copter inside it comes down (R-AD-COPTER-DAMPED)", "1005-robo-copter-lands-in-damping-field.scn"},
		{"Flying: goo does not hold a flying robot (Retro-Rockets off goo)", "1006-retro-rockets-off-goo.scn"},
		{"Option Damping Field: a homing robot plays its card", "835-option-damping-field-homing-plays-card.scn"},
		{"Option Damping Field: a Reflector reflects nothing", "836-option-damping-field-reflector.scn"},
		{"Option Damping Field: Self-Destruct cannot be used", "837-option-damping-field-self-destruct-void.scn"},
		{"Option Damping Field: Big Jet does not fire, its fuel is discarded", "838-option-damping-field-big-jet-void.scn"},
		{"Teleporters: the landing square is entered (a mine there goes off)", "1007-teleported-onto-a-mine.scn"},
		{"Missile Launcher: a crusher sets a missile off", "1008-missile-crusher-explodes.scn"},
		{"Goo Dropper: a board pusher's push counts toward the four squares", "1009-goo-board-pusher-counts.scn"},
		{"Drone Launcher: a robot driving into a drone is pushed back and goes on", "1010-robot-drives-into-drone.scn"},
		{"Homing Device: tagging another robot moves the token off the previous one", "876-homing-device-retag-moves-token.scn"},
		{"Interceptor: the token is taken back at the exchange", "741-interceptor-exchange.scn"},
		{"Self-Destruct: a virtual robot's explosion hurts only itself", "843-self-destruct-virtual-robot.scn"},
		{"Randomizers: a locked register's card is replaced, the new card stays locked", "1011-randomizer-locked-register.scn"},
		{"Teleporters: a homing move from a teleporter is no movement card", "1012-homing-off-a-teleporter.scn"},
		{"Devices: options do not act on devices (Ramming Device pushing The Big One)", "1013-ramming-device-big-one.scn"},
		{"Self-Destruct: given up for a fourth option, it explodes", "844-self-destruct-given-up-as-fourth.scn"},
		{"Proximity Mine: a diagonal is not within a square", "1014-proximity-mine-diagonal-not-within.scn"},
		{"Mine Layer: a robot pushed onto a mine; the blast after the whole push (R-AD-PUSH-MEET)", "1015-robot-pushed-onto-mine.scn"},
		{"Drone Launcher: a robot pushed into a drone is thrown back into its pusher (R-AD-PUSH-MEET)", "1016-pushed-into-drone-pushes-pusher-back.scn"},
		{"Drone Launcher: the same over a whole turn, checked as a saved state", "1017-pushed-into-drone-whole-turn.scn"},
		{"Devices: a device left by a robot flying over a pit falls in (The Big One, no explosion)", "1018-robo-copter-drops-big-one-into-pit.scn"},
		{"Bridge Layer: open floor for the rest of the game, a device may lie on it", "1019-big-one-on-a-bridge.scn"},
		{"Devices: a virtual bridge goes when its robot becomes real, and the robot on it falls (R-AD-VIRTUAL-BRIDGE)", "1020-virtual-bridge-gone-robot-falls.scn"},
		{"Goo Dropper: a pusher's move into a robot held by goo counts square by square (issue 23)", "1021-goo-push-counts-square-by-square.scn"},
		{"Homing Device: the homing move is no card's move (issue 23)", "1022-homing-move-is-no-card.scn"},
		{"Deluxe Option Package: the cards offered are the deck's next three, seat by seat", "1023-deluxe-package-offers-top-three.scn"},
	}
	checkArmedCases(t, statements)
}

// ruleCase is a rule of seed 001 (a worked example or a statement) and the scenario that
// plays it.
type ruleCase struct{ rule, file string }

// checkArmedCases fails t for every case whose scenario is missing or does not cite
// seed 001.
func checkArmedCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	byFile := map[string]armedScenario{}
	for _, s := range readArmedScenarios(t) {
		byFile[s.file] = s
	}
	for _, c := range cases {
		s, ok := byFile[c.file]
		switch {
		case !ok:
			t.Errorf("%s: no scenario %s", c.rule, c.file)
		case !s.cites:
			t.Errorf("%s: %s does not cite seed 001", c.rule, c.file)
		}
	}
}
