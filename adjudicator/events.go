package adjudicator

import "slices"

// Event is one thing that happened in a turn, in the order it happened. The log is the
// engine's account of a turn: reports, pictures and the scenario suite read it. Fields
// that do not apply are left zero and omitted from JSON (schema: docs/scenarios.md).
type Event struct {
	Register int    `json:"register"`        // 1–5; 0 before and after the registers
	Phase    string `json:"phase"`           // deal, move, express, belts, pushers, gears, crushers, stompers, lasers, flamers, flags, chop-shop, end
	Kind     string `json:"kind"`            // see the Ev* constants
	Robot    string `json:"robot,omitempty"` // who it happened to
	Other    string `json:"other,omitempty"` // the other robot: pusher, shooter, pushed
	Card     int    `json:"card,omitempty"`  // program card priority
	From     *Pos   `json:"from,omitempty"`
	To       *Pos   `json:"to,omitempty"`
	Facing   *Dir   `json:"facing,omitempty"`
	Amount   int    `json:"amount,omitempty"` // damage, repair, steps, flag number, lives
	Cause    string `json:"cause,omitempty"`  // pit, off-board, crusher, stomper, laser, robot-laser, flamer, ledge, landed-on, damage, wall, door, repulsor, oil, ramp, portal, chop-shop
	Option   string `json:"option,omitempty"`
	Device   string `json:"device,omitempty"` // a device's kind (DeviceKind); Amount is its id
	Target   *Pos   `json:"target,omitempty"` // a drone's target counter (launch, and use with Cause target)
}

// Event kinds.
const (
	EvDeal       = "deal"        // Amount cards dealt
	EvPoweredUp  = "powered-up"  // back on after a turn down
	EvPowerDown  = "power-down"  // powered down this turn; damage repaired
	EvAnnounce   = "announce"    // announced power down: down for the next turn, damage repaired
	EvStayDown   = "stay-down"   // stays powered down next turn
	EvCard       = "card"        // reveals Card
	EvMove       = "move"        // moved one square From→To under its own power
	EvTurn       = "turn"        // rotated in place to Facing
	EvPush       = "push"        // Robot pushed by Other From→To
	EvBlocked    = "blocked"     // movement stopped by a wall (Cause) or a robot
	EvConveyed   = "conveyed"    // carried by a belt From→To
	EvRotated    = "rotated"     // turned by a curve or gear to Facing
	EvPushed     = "pushed"      // moved by a board pusher
	EvDestroyed  = "destroyed"   // Cause: pit, off-board, crusher, damage
	EvDamage     = "damage"      // Amount damage from Cause (laser, robot-laser), Other shooter
	EvPrevented  = "prevented"   // one point of damage prevented by discarding Option
	EvFlag       = "flag"        // touched flag Amount
	EvArchive    = "archive"     // archive marker moved To
	EvRepair     = "repair"      // Amount damage repaired
	EvOptionGain = "option"      // drew Option ("" with Cause "unknown": a forecast's draw, R-FORECAST-HIDDEN)
	EvOptionLose = "option-lost" // discarded Option
	EvLifeLost   = "life-lost"   // Amount lives left
	EvOut        = "out"         // no lives left: leaves the race
	EvReenter    = "reenter"     // re-entered To facing Facing (virtual if the square was taken)
	EvReal       = "real"        // a virtual robot alone on its square became real
	EvWin        = "win"         // touched the last flag first

	// The 2023 rules (seed 004). Card is a card's kind number there (CardKind).
	EvPriority   = "priority"       // Robot now holds the priority token
	EvEnergy     = "energy"         // Robot has Amount energy now (Cause: power-up, battery, haywire)
	EvDamageCard = "damage-card"    // drew damage Card; Cause: discard-pile, register (Amount), damage-discard
	EvNoDamage   = "no-damage-card" // a point of damage with no damage card left to draw
	EvReplaced   = "replaced"       // revealed Card (SPAM, Again in register 1) replaced by Amount
	EvAgain      = "again"          // Again repeats Card (0: nothing to repeat)
	EvReshuffle  = "reshuffle"      // a discard pile shuffled into a deck of Amount cards (Cause damage: the damage deck)
	EvReboot     = "reboot"         // fell (Cause pit, off-board) From: off the board until it re-enters
	EvShutdown   = "shutdown"       // shut down for the round; Amount damage cards discarded
	EvRevealed   = "revealed"       // a card turned face up and not played: Card, in register Amount (a shutdown reveals its registers; Cause "haywire" for a face-down Haywire)
	EvUpgrade    = "upgrade"        // upgrade phase: Option drawn, installed or uninstalled (Cause); Amount energy paid
	// The floor tiles (seed 003 Grand Prix, seed 000).
	EvSlid        = "slid"         // slid one square From→To on oil
	EvSlowed      = "slowed"       // Amount squares of its card lost (Cause "oil" or "water": where it started)
	EvTeleport    = "teleported"   // a portal (Cause "portal") or a teleporter ("teleporter", Amount squares) moved it From→To
	EvRepulsed    = "repulsed"     // ran into a repulsor field at From: pushed back Amount squares
	EvArchiveKept = "archive-kept" // reached a flag and kept its archive at To (Rules.ArchiveChoice)
	EvRecharged   = "recharged"    // a chop shop restored Option's Amount used-up tokens

	// Option cards (effects.go, cards_*.go).
	EvUse      = "use"      // used Option (on Other); Card, Amount as the card says
	EvAbsorbed = "absorbed" // Option stopped Amount points of damage from Cause
	EvSwapped  = "swapped"  // Option put Card in this register instead of Amount (the old card); Card 0: unknown in a forecast

	// The Armed and Dangerous floor (seed 001).
	EvRandomized = "randomized" // a randomizer replaced register card Amount by Card (0: unknown in a forecast)
	// Devices and explosions (seed 001, Devices, Explosive Damage: devices.go, explosions.go).
	EvExplosion  = "explosion"   // Option (a card or a device kind) of Robot (its owner, "" none) exploded at To with power Amount; Cause why
	EvLaunch     = "launch"      // Robot's Option launched Device number Amount at To, facing Facing; a drone's target counter at Target
	EvDeviceMove = "device"      // Device number Amount of Robot moved From→To (Cause: its own move, belt, pusher ...), facing Facing
	EvDeviceGone = "device-gone" // Device number Amount of Robot left the board at From; Cause: exploded, pit, crusher, off-board, real, used
	EvFlew       = "flew"        // Robot flew From→To over what lay between (Option: the card; Cause landing: moved on to land)
	EvLanded     = "landed"      // Robot stopped flying at To

	// Phase-programmed options (seed 001, Phase-Programmed Options: phases.go).
	EvProgrammed = "programmed" // phase-programmed Option laid in register Amount (Card: the second card it placed)
	EvVoid       = "void"       // Option's program for register Amount was refused or turned illegal (Cause why)
)

// ApplyEvent replays one event on robots (found by name): where it moved or turned,
// what it took, how its state changed (energy and upgrades under the 2023 rules,
// options). It follows the log and decides nothing: pictures and the replay page use it
// to show a turn step by step. Events about robots not in robots are ignored. It never
// changes what the robots' slices and mats share with another state: a mat is copied
// before it changes, a list of options replaced.
func ApplyEvent(robots []Robot, e Event) {
	i := -1
	for k := range robots {
		if robots[k].Name == e.Robot {
			i = k
			break
		}
	}
	if i < 0 {
		return
	}
	r := &robots[i]
	switch e.Kind {
	case EvMove, EvPush, EvConveyed, EvPushed, EvSlid, EvTeleport, EvFlew:
		if e.To != nil {
			r.Pos = *e.To
		}
	case EvTurn, EvRotated:
		if e.Facing != nil {
			r.Facing = *e.Facing
		}
	case EvDestroyed, EvReboot:
		r.Destroyed = true
	case EvShutdown:
		r.Power = PowerDown
	case EvEnergy:
		if m := ownMat(r); m != nil {
			m.Energy = e.Amount
		}
	case EvUpgrade:
		// The upgrade phase (upgrades.go): Amount is the energy paid.
		m := ownMat(r)
		if m == nil {
			break
		}
		switch e.Cause {
		case "draw":
			m.Energy -= e.Amount
			m.Collection = append(slices.Clip(m.Collection), e.Option)
		case "install":
			m.Energy -= e.Amount
			m.Collection = without(m.Collection, e.Option)
			r.Options = append(slices.Clip(r.Options), e.Option)
		case "uninstall":
			r.Options = without(r.Options, e.Option)
		}
	case EvOptionGain:
		if e.Option != "" { // a forecast's unknown draw brings no card
			r.Options = append(slices.Clip(r.Options), e.Option)
		}
	case EvOptionLose:
		r.Options = without(r.Options, e.Option)
	case EvOut:
		r.Out = true
	case EvReenter:
		if e.To != nil {
			r.Pos = *e.To
		}
		if e.Facing != nil {
			r.Facing = *e.Facing
		}
		r.Destroyed = false
		r.Damage = e.Amount
		// Re-entering onto a taken square makes a virtual robot (seed 003, Virtual
		// Robots); a later EvReal says when it becomes real.
		r.Virtual = false
		for j := range robots {
			if j != i && robots[j].Active() && robots[j].Pos == r.Pos {
				r.Virtual = true
			}
		}
	case EvReal:
		r.Virtual = false
	case EvDamage:
		r.Damage += e.Amount
	case EvRepair:
		r.Damage = max(0, r.Damage-e.Amount)
	case EvPowerDown, EvAnnounce:
		r.Power = PowerDown
	case EvPoweredUp:
		r.Power = PowerOn
	case EvFlag:
		r.Flags = e.Amount
	case EvLifeLost:
		r.Lives = e.Amount
	}
}

// ownMat gives robot r a mat of its own before ApplyEvent changes it: the robots given
// to ApplyEvent are often shallow copies of a state's, whose mats must not change.
func ownMat(r *Robot) *Mat {
	if r.Mat == nil {
		return nil
	}
	m := *r.Mat
	r.Mat = &m
	return r.Mat
}

// without is names less the first that is name, in a new slice.
func without(names []string, name string) []string {
	k := slices.Index(names, name)
	if k < 0 {
		return names
	}
	return append(slices.Clone(names[:k]), names[k+1:]...)
}

// EventKinds lists every event kind, for readers that must refuse an unknown one (the
// scenario format's expect lines). A new kind is added here too (TestEventKindsComplete).
var EventKinds = []string{EvDeal, EvPoweredUp, EvPowerDown, EvAnnounce, EvStayDown, EvCard, EvMove, EvTurn, EvPush, EvBlocked, EvConveyed, EvRotated, EvPushed, EvDestroyed, EvDamage, EvPrevented, EvFlag, EvArchive, EvRepair, EvOptionGain, EvOptionLose, EvLifeLost, EvOut, EvReenter, EvReal, EvWin, EvPriority, EvEnergy, EvDamageCard, EvNoDamage, EvReplaced, EvAgain, EvReshuffle, EvReboot, EvShutdown, EvRevealed, EvUpgrade, EvSlid, EvSlowed, EvTeleport, EvRepulsed, EvArchiveKept, EvRecharged, EvUse, EvAbsorbed, EvSwapped, EvRandomized, EvExplosion, EvLaunch, EvDeviceMove, EvDeviceGone, EvProgrammed, EvVoid, EvFlew, EvLanded}
