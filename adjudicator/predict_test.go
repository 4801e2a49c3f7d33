package adjudicator

import "testing"

// predictGame: a 6×6 floor with a pit at 3,1 and a wall on the east side of 1,4; robot
// A at 0,1 with 8 damage holding two options, robot B at 2,1 (next to the pit, east of
// it) with 7 damage, robot C at 0,4.
func predictGame(t *testing.T) (*Setup, *State) {
	t.Helper()
	b := NewBoard(6, 6)
	b.At(Pos{3, 1}).Floor = FloorPit
	b.At(Pos{1, 4}).Walls = b.At(Pos{1, 4}).Walls.With(East)
	b.NormalizeWalls()
	c := &Course{Name: "predict", Board: b, Flags: []Pos{{5, 5}},
		Starts: []Start{{Pos: Pos{0, 0}, Facing: North}}, MinPlayers: 1, MaxPlayers: 8, Boards: 1}
	s, err := NewSetup(c, PostalRules(), 1, DealtOptions(DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st := &State{Turn: 1, Robots: []Robot{
		{Name: "A", Pos: Pos{0, 1}, Facing: East, Lives: 3, Damage: 8, Options: []string{"Brakes", "Turret"}},
		{Name: "B", Pos: Pos{2, 1}, Facing: West, Lives: 3, Damage: 7},
		{Name: "C", Pos: Pos{0, 4}, Facing: East, Lives: 3},
	}}
	return s, st
}

// recorder discards the oldest option while Predict says the hit would destroy the
// robot, and records what the View said at each point.
type recorder struct {
	Defaults
	pending []int
	predict []bool
	answer  func(v View) string
}

func (d *recorder) PreventDamage(v View, _ string) int {
	yes, known := v.Predict(Self, WouldBeDestroyed)
	if !known {
		panic("PreventDamage without a prediction")
	}
	d.pending = append(d.pending, v.PendingDamage())
	d.predict = append(d.predict, yes)
	if yes {
		return 0
	}
	return -1
}

func (d *recorder) Option(v View, option, question string) string { return d.answer(v) }

// A two-point hit on a robot with 8 damage: the first point would destroy it (8+2), so
// an option goes; the second would not (8+1), so it is taken.
func TestPredictSelfDestroyedPerPoint(t *testing.T) {
	s, st := predictGame(t)
	rec := &recorder{}
	tu := &turn{setup: s, st: st, orders: []Orders{{Decider: rec}}, single: -1, register: 1}
	tu.damage(0, 2, "laser", "")
	r := st.Robots[0]
	if r.Damage != 9 || len(r.Options) != 1 || r.Destroyed {
		t.Errorf("after the hit: damage %d, options %v, destroyed %v; want 9, [Turret], false", r.Damage, r.Options, r.Destroyed)
	}
	if want := []int{2, 1}; len(rec.pending) != 2 || rec.pending[0] != want[0] || rec.pending[1] != want[1] {
		t.Errorf("pending damage per point %v; want %v", rec.pending, want)
	}
	if len(rec.predict) != 2 || !rec.predict[0] || rec.predict[1] {
		t.Errorf("predictions %v; want [true false]", rec.predict)
	}
	// Three points on 8 damage with one option left: the first would destroy (8+3) and
	// is prevented; then 8+0+2 still would, but no option is left to discard.
	rec2 := &recorder{}
	tu.orders[0].Decider = rec2
	tu.damage(0, 3, "laser", "")
	if r := st.Robots[0]; !r.Destroyed {
		t.Errorf("damage %d, options %v: want destroyed", r.Damage, r.Options)
	}
	if len(rec2.pending) != 1 || rec2.pending[0] != 3 {
		t.Errorf("pending %v; want [3] (asked only while options remain)", rec2.pending)
	}
}

// Outside a damage decision, and for a question without a target, nothing is known.
func TestPredictUnknown(t *testing.T) {
	s, st := predictGame(t)
	tu := &turn{setup: s, st: st, single: -1, register: 2}
	v := tu.view(0)
	for _, c := range []struct {
		who  Subject
		what Outcome
	}{{Self, WouldBeDestroyed}, {Self, WouldFall}, {Self, WouldEndOnLaser}, {TheTarget, WouldBeDestroyed}, {TheTarget, WouldFall}} {
		if yes, known := v.Predict(c.who, c.what); yes || known {
			t.Errorf("Predict(%d, %d) = %v, %v during a register; want false, false", c.who, c.what, yes, known)
		}
	}
	if _, ok := v.Target(); ok {
		t.Error("a plain View has a target")
	}
	if v.PendingDamage() != 0 {
		t.Error("pending damage outside PreventDamage")
	}
	tu.register = 0
	if yes, known := v.Predict(Self, WouldEndOnLaser); yes || !known {
		t.Errorf("at the end of the turn, off any laser: %v, %v; want false, true", yes, known)
	}
}

// An option question about a target carries it and its Impact.
func TestAskOptionTarget(t *testing.T) {
	s, st := predictGame(t)
	type seen struct {
		target          string
		falls, destroys bool
	}
	var got seen
	rec := &recorder{answer: func(v View) string {
		got = seen{}
		if r, ok := v.Target(); ok {
			got.target = r.Name
		}
		got.falls, _ = v.Predict(TheTarget, WouldFall)
		got.destroys, _ = v.Predict(TheTarget, WouldBeDestroyed)
		if got.falls {
			return got.target
		}
		return ""
	}}
	tu := &turn{setup: s, st: st, orders: []Orders{{Decider: rec}}, single: -1, register: 3}
	v := tu.view(0)
	tests := []struct {
		name, target string
		impact       Impact
		want         seen
		answer       string
	}{
		{"push B east into the pit", "B", Impact{Move: East, Steps: 1}, seen{"B", true, true}, "B"},
		{"pull B west, away from it", "B", Impact{Move: West, Steps: 1}, seen{"B", false, false}, ""},
		{"3 damage on B's 7", "B", Impact{Damage: 3}, seen{"B", false, true}, ""},
		{"2 damage on B's 7", "B", Impact{Damage: 2}, seen{"B", false, false}, ""},
		{"push C off the west edge", "C", Impact{Move: West, Steps: 1}, seen{"C", true, true}, "C"},
		{"push C east: the wall holds", "C", Impact{Move: East, Steps: 3}, seen{"C", false, false}, ""},
		{"no such robot", "Zed", Impact{Move: East, Steps: 1}, seen{}, ""},
		{"no target", "", Impact{Damage: 9}, seen{}, ""},
		{"not myself", "A", Impact{Damage: 9}, seen{}, ""},
	}
	for _, tt := range tests {
		ans := v.AskOption("Tractor Beam", "pull the target?", tt.target, tt.impact)
		if got != tt.want || ans != tt.answer {
			t.Errorf("%s: saw %+v, answered %q; want %+v, %q", tt.name, got, ans, tt.want, tt.answer)
		}
	}
	st.Robots[1].Destroyed = true
	v.AskOption("Tractor Beam", "pull?", "B", Impact{Move: East, Steps: 1})
	if got.target != "" {
		t.Errorf("a destroyed robot is still a target: %+v", got)
	}
}
