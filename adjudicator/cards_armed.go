package adjudicator

import (
	"slices"
	"strings"
)

// The Armed and Dangerous option cards (seed 001, "Complete Listing of Option Cards";
// numbered 47–72 in data/options.txt). Each card is one type here citing its entry in
// seed 001, listed in armedEffects; a card joins the dealt decks once its scenarios are
// in (optiondeck.go, scenarioTested).
//
// Implemented so far: Big Gun (47), Interceptor (60), Reengineering Unit (67), Reflector
// (68); the cards that launch devices are in cards_devices.go (Drone Launcher 55,
// Missile Launcher 62). The others need machinery that is not built yet
// (phase-programmed options and the primary card, boosters, flying and landing): they
// are not in these lists, so no game deals them.

// armedEffects is the Armed and Dangerous cards whose effects are implemented.
func armedEffects() []Effect {
	return []Effect{bigGun{}, interceptor{}, reengineeringUnit{}, reflector{}}
}

// ---- 47 Big Gun (seed 001, "Big Gun": optional weapon, launcher, payload 5) ----
// Instead of the main laser the robot may fire the Big Gun: 2 damage to the first robot
// in the laser's line, and the robot itself is pushed back 1 square (away from where it
// fires). It holds five shots; spent, the launcher stays on the robot (seed 001,
// Launchers: "After a launcher's payload has been spent, the launcher remains attached"),
// so it can still be discarded to prevent damage, but fires no more.
//
// Ruling: the Big Gun may be fired with no robot in its line (the shot is wasted on a
// wall or past the board's edge) and the recoil still pushes the robot back: seed 001
// asks for no target. Ruling: the recoil is a push like a board pusher's (robots behind
// are pushed, a wall stops it), carried out after every laser's damage, with the other
// weapons' pushes (View.Later), in seating order.
//
// The decision, asked in phase d of each register while shots remain: fire the Big Gun
// instead of the laser ("use Big Gun", optionally "on NAME" to fire only at that robot);
// the default is the laser.
type bigGun struct{}

func (bigGun) Option() string { return "Big Gun" }

// bigGunShots is the Big Gun's payload (seed 001: "Payload/capacity: 5").
const bigGunShots = 5

func (bigGun) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	shots := t.token(i, "Big Gun")
	if shots >= bigGunShots {
		return false
	}
	j := t.firstInLine(i, g.Dir)
	var a Answer
	if j >= 0 {
		a = t.askAbout(i, "Big Gun", "fire the Big Gun instead of your laser?", j, Impact{Damage: 2})
	} else {
		a = t.ask(i, "Big Gun", "fire the Big Gun (no robot in its line) instead of your laser?")
	}
	if !a.Use() || (a.Target != "" && (j < 0 || t.st.Robots[j].Name != a.Target)) {
		return false
	}
	shots++
	t.setToken(i, "Big Gun", shots)
	t.useEvent(i, "Big Gun", j, 0, shots)
	if j >= 0 {
		t.hits = append(t.hits, hit{target: j, amount: 2, shooter: i, from: g.Dir.Back(), cause: "big-gun"})
	}
	v.Later(func() { t.shove(i, g.Dir.Back(), "big-gun") })
	return true
}

// ---- 67 Reengineering Unit (seed 001, "Reengineering Unit": run time) ----
// When the robot pushes another robot it may exchange this card for one of the pushed
// robot's options: the pushed robot gets the Reengineering Unit, the pusher the option.
//
// Ruling: only a push that moves the other robot counts ("pushes"), whether the pusher
// is moving under its own card or being moved; a push held by a wall does not. Ruling:
// a card keeps what is on it (shots fired, damage absorbed) when it changes hands. The
// exchange is at once, in the middle of the move: what the cards do from then on is
// their new holders'.
//
// The decision, asked at each push while the robot holds the card: which option to take
// ("use Reengineering Unit take Brakes", or "use Reengineering Unit" for the pushed
// robot's oldest option; "on NAME" to do it only to that robot). The default is no
// exchange. An option the pushed robot does not hold is no exchange.
type reengineeringUnit struct{}

func (reengineeringUnit) Option() string { return "Reengineering Unit" }

func (reengineeringUnit) Rams(v View, j int, d Dir, moved bool) {
	t, i := v.t, v.robot
	if !moved || j == i || !t.holds(i, "Reengineering Unit") {
		return
	}
	other := &t.st.Robots[j]
	if len(other.Options) == 0 {
		return
	}
	a := t.askAbout(i, "Reengineering Unit", "exchange the Reengineering Unit for one of its options?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != other.Name) {
		return
	}
	take := other.Options[0]
	if a.Option != "" {
		k := slices.IndexFunc(other.Options, func(o string) bool { return strings.EqualFold(o, a.Option) })
		if k < 0 {
			return
		}
		take = other.Options[k]
	}
	if take == "Reengineering Unit" {
		return // nothing to gain: the same card for the same card
	}
	t.swapOptions(i, "Reengineering Unit", j, take)
	t.useEvent(i, "Reengineering Unit", j, 0, 0)
	t.emit(Event{Kind: EvOptionLose, Robot: t.st.Robots[i].Name, Option: "Reengineering Unit", Cause: "exchanged", Other: other.Name})
	t.emit(Event{Kind: EvOptionGain, Robot: t.st.Robots[i].Name, Option: take, Cause: "exchanged", Other: other.Name})
	t.emit(Event{Kind: EvOptionLose, Robot: other.Name, Option: take, Cause: "exchanged", Other: t.st.Robots[i].Name})
	t.emit(Event{Kind: EvOptionGain, Robot: other.Name, Option: "Reengineering Unit", Cause: "exchanged", Other: t.st.Robots[i].Name})
}

// swapOptions gives robot i's option mine to robot j and j's option theirs to i, each
// card keeping its place in its new holder's list and its tokens. The slices are copied
// first (a Simulator's robots share them with the state they forecast).
func (t *turn) swapOptions(i int, mine string, j int, theirs string) {
	ri, rj := &t.st.Robots[i], &t.st.Robots[j]
	ki, kj := slices.Index(ri.Options, mine), slices.Index(rj.Options, theirs)
	if ki < 0 || kj < 0 {
		return
	}
	tokI, tokJ := t.token(i, mine), t.token(j, theirs)
	ri.Options, rj.Options = slices.Clone(ri.Options), slices.Clone(rj.Options)
	ri.Options[ki], rj.Options[kj] = theirs, mine
	t.fxOK[i], t.fxOK[j] = false, false
	t.setToken(i, theirs, tokJ)
	t.setToken(j, mine, tokI)
}

// armedTurn is what the Armed and Dangerous cards keep for one turn.
type armedTurn struct {
	reflect [MaxRobots]int8 // the side Reflector faces, +1 (0: not asked; front)
}

// ---- 68 Reflector (seed 001, "Reflector": turn programmed) ----
// For the whole turn the Reflector faces one side of the robot: front, right, back or
// left. A laser that hits the robot on that side does its damage as usual and is also
// reflected back to its source.
//
// Ruling: the reflected beam goes back along the laser's own path, which the laser has
// just shown to be clear, so it hits the robot that fired it with the damage the laser
// brought to the Reflector (cause "reflector"), after every laser of the register has
// done its damage. A board laser's reflection goes back into its emitter and hurts
// nobody. Ruling: lasers are the board's lasers and the robots' lasers (main, rear,
// double, power); the other weapons (Turbo Blaster, Big Gun ...) are not reflected, and
// neither is a reflected beam, so two Reflectors facing each other do not send a beam
// back and forth. Ruling: a shield or a coating that stops a laser's damage before it
// reaches the Reflector (the effect order) leaves less to reflect.
//
// The decision, asked when the programs are loaded: which side the Reflector faces ("use
// Reflector facing back"; a compass direction is taken relative to the robot's facing
// then). The default is the front.
type reflector struct{}

func (reflector) Option() string { return "Reflector" }

func (reflector) StartTurn(v View) {
	t, i := v.t, v.robot
	a := t.ask(i, "Reflector", "which side does the Reflector face this turn?")
	side := 0
	switch {
	case a.HasSide:
		side = a.Side
	case a.HasDir:
		side = int((a.Dir - t.st.Robots[i].Facing + 4) & 3)
	}
	t.armed.reflect[i] = int8(side) + 1
}

func (reflector) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	if h.Amount <= 0 || !h.Sided || (h.Cause != "laser" && h.Cause != "robot-laser") {
		return
	}
	r := &t.st.Robots[i]
	side := 0
	if s := t.armed.reflect[i]; s > 0 {
		side = int(s - 1)
	}
	if h.Side(r.Facing) != side {
		return
	}
	t.useEvent(i, "Reflector", h.By, 0, h.Amount)
	if h.By < 0 {
		return // back into a board laser's emitter
	}
	back := Harm{Amount: h.Amount, Cause: "reflector", From: h.From.Back(), Sided: true, By: i}
	shooter := h.By
	v.Later(func() {
		if t.st.Robots[shooter].Active() {
			t.hurt(shooter, back, t.st.Robots[i].Name)
		}
	})
}

// ---- 60 Interceptor (seed 001, "Interceptor": optional weapon) ----
// Instead of the main laser the robot may put its intercept token on the robot its laser
// would hit (moving it from any robot that had it). After the cards are dealt on a later
// turn it may exchange hands with the robot that has the token, and takes the token
// back. Both hands keep their sizes: the robot with fewer cards gives its whole hand to
// the other and draws as many at random from the other's hand (equal hands are simply
// exchanged).
//
// The token is kept on the card (Robot.Tokens: the target's seat + 1; 0 none).
//
// Ruling: "subsequent turns" begin with the deal that ends the turn the token was placed
// in: that deal's hands are the next turn's. Ruling: the draw at random is by the game's
// seed and the turn (streamIntercept), so a replay draws the same cards. Ruling: a robot
// with no hand (powered down, out of the race, or not yet back) cannot be exchanged with;
// the token stays. A target out of the race loses the token.
//
// The decisions: in phase d, place the token instead of firing ("use Interceptor", "on
// NAME" for one robot only); at the deal, exchange hands ("use Interceptor" again: one
// standing order does both). The default is neither: the laser fires, hands are kept.
type interceptor struct{}

func (interceptor) Option() string { return "Interceptor" }

func (interceptor) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 {
		return false
	}
	a := t.askAbout(i, "Interceptor", "put your intercept token on it instead of firing your laser?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != t.st.Robots[j].Name) {
		return false
	}
	t.setToken(i, "Interceptor", j+1)
	t.useEvent(i, "Interceptor", j, 0, 0)
	return true
}

func (interceptor) AfterHands(v View) {
	t, i := v.t, v.robot
	k := t.token(i, "Interceptor")
	if k <= 0 || k > len(t.st.Robots) || k-1 == i {
		return
	}
	j := k - 1
	me, them := &t.st.Robots[i], &t.st.Robots[j]
	if them.Out {
		t.setToken(i, "Interceptor", 0)
		return
	}
	if len(me.Hand) == 0 || len(them.Hand) == 0 {
		return
	}
	a := t.askAbout(i, "Interceptor", "exchange hands with the robot holding your intercept token?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != them.Name) {
		return
	}
	few, many := me, them
	if len(them.Hand) < len(me.Hand) {
		few, many = them, me
	}
	n := len(few.Hand)
	pool := slices.Clone(many.Hand)
	rng := turnRNG(t.setup.Seed, t.st.Turn, streamIntercept)
	rng.Shuffle(len(pool), func(x, y int) { pool[x], pool[y] = pool[y], pool[x] })
	drawn, kept := pool[:n:n], pool[n:]
	newMany := append(slices.Clone(few.Hand), kept...)
	few.Hand, many.Hand = slices.Clone(drawn), newMany
	slices.Sort(few.Hand)
	slices.Sort(many.Hand)
	t.setToken(i, "Interceptor", 0)
	t.useEvent(i, "Interceptor", j, 0, n)
}
