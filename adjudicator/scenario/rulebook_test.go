package scenario

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The audit of seeds 003 (the postal rules and their Grand Prix tiles), 000 (Crash &
// Burn) and 004 (the 2023 rules) against the scenario suite, as armedfloor_test.go does
// for seed 001: every floor element has its scenarios, and every worked example,
// illustration and rule sentence listed below has the scenario that plays it.

// rulebookScenario is what the audit reads of a scenario file.
type rulebookScenario struct {
	file   string
	source string
	tokens []string // the board's square tokens and the tiles laid by a rules: line
}

func (s rulebookScenario) cites(seed string) bool { return strings.Contains(s.source, "seed "+seed) }

func readRulebookScenarios(t *testing.T) map[string]rulebookScenario {
	t.Helper()
	out := map[string]rulebookScenario{}
	for _, f := range scenarioFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := rulebookScenario{file: filepath.Base(f)}
		inBoard := false
		for _, line := range strings.Split(string(b), "\n") {
			if inBoard && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
				s.tokens = append(s.tokens, strings.Fields(line)...)
				continue
			}
			inBoard = false
			switch {
			case strings.HasPrefix(line, "source:"):
				s.source = line
			case strings.HasPrefix(line, "board:"):
				inBoard = true
			case strings.HasPrefix(line, "rules:"):
				// rules: tiles=3,4:t1;9,4:t1 lays element tiles on the board.
				for _, kv := range strings.Fields(strings.TrimPrefix(line, "rules:")) {
					if v, ok := strings.CutPrefix(kv, "tiles="); ok {
						for _, tile := range strings.Split(v, ";") {
							if _, tok, ok := strings.Cut(tile, ":"); ok {
								s.tokens = append(s.tokens, tok)
							}
						}
					}
				}
			}
		}
		out[s.file] = s
	}
	return out
}

// sidesThen reports whether e is letter followed by one or more sides (N E S W) and
// then only digits (registers), as in qN, rSW, dE24.
func sidesThen(e string, letter byte, wantSides bool) bool {
	if len(e) < 1 || e[0] != letter {
		return false
	}
	rest := strings.TrimLeft(e[1:], "NESW")
	sides := len(e) - 1 - len(rest)
	if wantSides != (sides > 0) {
		return false
	}
	return strings.Trim(rest, "12345") == ""
}

// grandPrixFloor are the floor elements of seed 003's "Extra Tiles For Grand Prix" and
// of seed 000's new spaces, each with the seeds a scenario may cite for it; docs/boards.md
// promises at least four scenarios for each.
var grandPrixFloor = []struct {
	name  string
	seeds []string
	has   func(e string) bool
}{
	{"oil slicks", []string{"003", "000"}, func(e string) bool { return e == "o" }},
	{"portals", []string{"003", "000"}, func(e string) bool { return len(e) == 2 && e[0] == 't' && e[1] >= '1' && e[1] <= '9' }},
	{"levels (ledges)", []string{"003"}, isLevel},
	{"ramps", []string{"003"}, func(e string) bool { return sidesThen(e, 'r', true) && strings.Trim(e[1:], "NESW") == "" }},
	{"repulsor fields", []string{"003"}, func(e string) bool { return sidesThen(e, 'q', true) && strings.Trim(e[1:], "NESW") == "" }},
	{"chop shops", []string{"003"}, func(e string) bool { return e == "$" }},
	{"flamers", []string{"000"}, func(e string) bool { return len(e) > 1 && sidesThen(e, 'm', false) }},
	{"swing doors", []string{"000"}, func(e string) bool { return sidesThen(e, 'd', true) && len(strings.Trim(e[1:], "NESW")) > 0 }},
	{"stompers", []string{"000"}, func(e string) bool { return sidesThen(e, 'k', false) }},
}

// TestGrandPrixFloorHasScenarios counts the scenarios whose board holds each element and
// whose source cites its seed (go test -v -run GrandPrixFloor prints the counts).
func TestGrandPrixFloorHasScenarios(t *testing.T) {
	all := readRulebookScenarios(t)
	for _, el := range grandPrixFloor {
		var files []string
		for _, s := range all {
			cites := false
			for _, seed := range el.seeds {
				cites = cites || s.cites(seed)
			}
			if cites && hasElem(s.tokens, el.has) {
				files = append(files, s.file)
			}
		}
		sort.Strings(files)
		t.Logf("%-16s %2d scenarios citing seed %s", el.name, len(files), strings.Join(el.seeds, " or "))
		if len(files) < 4 {
			t.Errorf("%s: %d scenarios (%s); want at least 4", el.name, len(files), strings.Join(files, ", "))
		}
	}
}

// TestRulebookExamples: every worked example, illustration and sample of seeds 003, 000
// and 004, and the rule sentences an outside test is most likely to turn into a board
// position, has its scenario, and the scenario cites the seed.
func TestRulebookExamples(t *testing.T) {
	examples := []struct{ seed, example, file string }{
		// seed 003, the postal rules
		{"003", "Program Cards: higher priorities are performed fully first", "001-priority-order.scn"},
		{"003", "Program Cards: rotate cards do not move the robot", "006-rotate-left.scn"},
		{"003", "Virtual Robots: cannot push each other", "033-virtual-pair-no-push.scn"},
		{"003", "Virtual Robots: interact with the board as normal", "201-virtual-robots-fall-and-are-crushed.scn"},
		{"003", "Virtual Robots: alone at the end of a turn becomes real", "153-virtual-alone-real.scn"},
		{"003", "Virtual Robots: reactivated robots can appear real", "151-reenter-free-real.scn"},
		{"003", "Virtual Robots: lasers affect virtual robots", "096-board-laser-virtual.scn"},
		{"003", "Option mounts: an option destroyed instead of a damage point, by orders", "111-prevent-with-option.scn"},
		{"003", "Option mounts: a destroyed robot loses an option", "148-destroyed-loses-option.scn"},
		{"003", "Pits: open edges act as pits", "016-off-the-board.scn"},
		{"003", "Walls: no damage running into a wall", "012-wall-stops-move.scn"},
		{"003", "Checkpoints: touched in order", "121-flags-in-order.scn"},
		{"003", "Checkpoints: passing through does not count", "019-passing-a-flag.scn"},
		{"003", "Checkpoints: a touched checkpoint is where the robot reactivates", "128-reenter-on-flag-archive.scn"},
		{"003", "Checkpoints: one point repaired at the end of a turn", "123-flag-once-and-repair.scn"},
		{"003", "Repair Sites: the archive moves at the end of a movement phase", "126-archive-repair-site.scn"},
		{"003", "Repair Sites: two spanners, an option instead of the repair", "132-double-wrench-option.scn"},
		{"003", "Express belts move two squares", "041-express-moves-two.scn"},
		{"003", "Turning belts: carried from the North, turned", "054-curve-turns-carried.scn"},
		{"003", "Turning belts: carried in from the West, not turned", "057-curve-from-straight-side.scn"},
		{"003", "Pushers: into the adjacent square", "070-pusher-active.scn"},
		{"003", "Pushers: a chain of robots", "073-pusher-chain.scn"},
		{"003", "Pushers: only on certain phases", "071-pusher-inactive.scn"},
		{"003", "Gears: rotated at the end of a movement phase", "076-gear-right.scn"},
		{"003", "Crushers: on conveyor belts", "081-belt-onto-crusher.scn"},
		{"003", "Lasers: a point for each beam", "091-board-laser-2-beam.scn"},
		{"003", "Lasers: a point for each beam in the square, two lasers crossing", "203-two-lasers-cross.scn"},
		{"003", "Lasers: not damaged by moving through", "109-moving-through-beam.scn"},
		{"003", "Lasers: two robots in line, the closer one hit", "094-board-laser-first-robot.scn"},
		{"003", "Sample Orders: 2 spanner repair & damage > 3 repair, else take option card", "200-sample-order-double-wrench.scn"},
		{"003", "Oil: slides into a robot on oil, both slide", "500-oil-illustration-3.scn"},
		{"003", "Oil: stopped by a wall", "505-oil-slide-stopped-by-wall.scn"},
		{"003", "Oil: beginning on oil negates the first square", "503-oil-starting-on-oil.scn"},
		{"003", "Oil: slides in the direction of its movement (backing up)", "208-oil-back-up-slides-backwards.scn"},
		{"003", "Portals: continue the movement from the other portal", "510-portal-continue-from-the-other.scn"},
		{"003", "Portals: destination occupied, open floor", "511-portal-destination-occupied.scn"},
		{"003", "Ledges: two damage crossing down", "521-ledge-fall-two-damage.scn"},
		{"003", "Ledges: landing on another robot", "522-ledge-land-on-robot.scn"},
		{"003", "Ledges: a wall from the lower level", "520-ledge-wall-from-below.scn"},
		{"003", "Ramps: an extra square going up", "530-ramp-up-extra-square.scn"},
		{"003", "Ramps: stopping on the extra square slides back", "531-ramp-stop-slides-back.scn"},
		{"003", "Ramps: going down negates the damage", "532-ramp-down-no-damage.scn"},
		{"003", "Repulsors: run into, pushed back by the card's count", "540-repulsor-run-into.scn"},
		{"003", "Repulsors: pushed into, by the pushing robot's card", "541-repulsor-pushed-into.scn"},
		{"003", "Repulsors: repulsed robots may push other robots", "213-repulsed-robot-pushes-robot-behind.scn"},
		{"003", "Chop shop: end of a register, scrap and draw", "551-chop-shop-register-scrap.scn"},
		{"003", "Chop shop: recharge", "555-chop-shop-recharge.scn"},
		{"003", "Chop shop: end of a turn, an additional option", "550-chop-shop-end-of-turn-draw.scn"},
		{"003", "Chop shop: newly obtained options cannot be exchanged", "552-chop-shop-not-in-turn-drawn.scn"},
		// seed 000, Crash & Burn
		{"000", "Life points: five players and six boards give 5", "174-lives-players-and-boards.scn"},
		{"000", "A fourth option card: discard any one", "133-fourth-option-discard.scn"},
		{"000", "Oil, Illustration 1: across the slick, no effect", "502-oil-driving-across.scn"},
		{"000", "Oil, Illustration 2a: slides until off the oil", "501-oil-slide-off-the-slick.scn"},
		{"000", "Oil, Illustration 2b: slides until blocked by a robot", "504-oil-slide-stopped-by-robot.scn"},
		{"000", "Oil, Illustrations 3a-3c: #840, #640, #490", "500-oil-illustration-3.scn"},
		{"000", "Oil: MOVE 1 or BACK UP on oil stays", "207-oil-back-up-on-oil-stays.scn"},
		{"000", "Portals: the orange robot onto the purple portal", "510-portal-continue-from-the-other.scn"},
		{"000", "Portals: the other purple portal turned off", "512-portal-switched-off-while-occupied.scn"},
		{"000", "Flamer, Ill. a/b, 3rd step: damage moving through", "561-flamer-moving-through.scn"},
		{"000", "Flamer, Ill. a, 2nd step: inactive, no damage", "562-flamer-inactive.scn"},
		{"000", "Flamer, Ill. b, 3rd step: damage while turning", "560-flamer-standing.scn"},
		{"000", "Flamer: two points in the same step", "563-flamer-twice-in-a-register.scn"},
		{"000", "Swing door, Ill. a, 2nd step: closed, blocked", "570-swing-door-closed.scn"},
		{"000", "Swing door, Ill. b, 3rd step: open, through", "571-swing-door-open.scn"},
		{"000", "Swing door: lasers pass the open door", "572-swing-door-lasers.scn"},
		{"000", "Stomper: active in the listed steps", "580-stomper-active.scn"},
		{"000", "Stomper: without numbers always active", "582-stomper-always.scn"},
		{"000", "Flamers activate directly after the lasers", "560-flamer-standing.scn"},
		{"000", "Reaching a Checkpoint: moving over it", "590-pass-touches-moving-over.scn"},
		{"000", "Reaching a Checkpoint: the Safety Copy may stay", "593-archive-choice-keep.scn"},
		{"000", "Reaching a Checkpoint: repair only when stopping on it", "409-pass-touches-repair-only-stopping.scn"},
		{"000", "Fourth Gear, Ill.: 4 instead of 3", "306-fourth-gear-moves-four.scn"},
		{"000", "Fourth Gear: the priority does not change", "408-fourth-gear-keeps-priority.scn"},
		{"000", "Reverse Gear, Ill.: back 2", "309-reverse-gear-back-two.scn"},
		{"000", "Protection Shield, Ill.: protected from the left", "348-protection-shield-side.scn"},
		{"000", "Protection Shield: not in use without the chit", "349-protection-shield-default-off.scn"},
		{"000", "Turret, Ill.: points to the right", "336-turret-side.scn"},
		{"000", "Turret: with Turbo Blaster", "400-turret-turbo-blaster.scn"},
		{"000", "Turret: with Tractor Beam", "401-turret-tractor-beam.scn"},
		{"000", "Power Laser, Ill.: through a robot, both damaged", "318-power-laser-through-robot.scn"},
		{"000", "Power Laser with Double Laser", "403-double-and-power-laser.scn"},
		{"000", "Target Control with Double Laser", "404-double-laser-target-control.scn"},
		{"000", "Rear Laser: two different robots in the same step", "405-rear-laser-two-robots.scn"},
		{"000", "Remote Control, Ill.: through walls and robots", "376-remote-control-through-walls.scn"},
		{"000", "Mechanical Arm: another robot on the checkpoint", "402-mechanical-arm-flag-occupied.scn"},
		{"000", "Protective Coating: the hand is not reduced", "406-protective-coating-full-hand.scn"},
		{"000", "Flywheel: never more than one card", "413-flywheel-one-card.scn"},
		{"000", "Circuit Breaker, note 5: protected during power down", "326-circuit-breaker-protected-down.scn"},
		{"000", "Extra Memory: a ten-card hand between turns is played, not refused", "415-extra-memory-ten-card-hand-plays.scn"},
		{"000", "Power Laser, note 4: a wall and a robot", "320-power-laser-wall-and-robot-not-two.scn"},
		// seed 004, the 2023 rules
		{"004", "Priority: the token's holder first, then clockwise", "r23-003-clockwise-after-holder.scn"},
		{"004", "Again in register 1 is treated like SPAM", "r23-028-again-first-register.scn"},
		{"004", "SPAM revealed: discarded, the top card played", "r23-016-spam-replaced.scn"},
		{"004", "Haywire: at most one a register", "r23-033-haywire-one-per-register.scn"},
		{"004", "Reboot: the robot on the token is pushed", "r23-054-reenter-push.scn"},
		{"004", "Reboot: face-down Haywire cards are discarded too", "r23-140-reboot-discards-face-down-haywire.scn"},
		{"004", "Board elements in order: push panels before gears", "r23-137-push-panel-then-gear.scn"},
		{"004", "Robot lasers fire after all board elements", "r23-125-robot-laser-after-belts.scn"},
		{"004", "Board lasers cannot fire through walls", "r23-123-board-laser-wall.scn"},
		{"004", "Curved belts rotate the robot", "r23-124-curved-belt-turns.scn"},
		{"004", "Pushing: chains, facing kept", "r23-128-chain-push.scn"},
		{"004", "Pushing: off the board", "r23-129-pushed-off-edge.scn"},
		{"004", "Walls: spaces on opposite sides are not adjacent (Boink)", "r23-127-boink-not-through-wall.scn"},
		{"004", "Double-Barrel Laser: the main laser only", "r23-126-double-barrel-main-only.scn"},
		{"004", "A Less Deadly Game: edges are walls", "r23-078-less-deadly.scn"},
		{"004", "Winning: the first to end a register on the final checkpoint", "r23-081-win-immediately.scn"},
	}
	all := readRulebookScenarios(t)
	for _, ex := range examples {
		s, ok := all[ex.file]
		switch {
		case !ok:
			t.Errorf("seed %s, %s: no scenario %s", ex.seed, ex.example, ex.file)
		case !s.cites(ex.seed):
			t.Errorf("seed %s, %s: %s does not cite seed %s", ex.seed, ex.example, ex.file, ex.seed)
		}
	}
}
