package orders

import (
	"slices"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// predictState is testGame with one more robot, Mo, on the board laser's row: at 5,3
// facing E, holding Brakes. Its program turns left in register 1 (staying in the beam,
// which hits it once), then moves north out of it and turns on the spot.
func predictState(t *testing.T, damage int) (*adjudicator.Setup, *adjudicator.State, adjudicator.Orders, int) {
	t.Helper()
	setup, st := testGame(t)
	mo := adjudicator.Robot{Name: "Mo", Pos: adjudicator.Pos{X: 5, Y: 3}, Facing: adjudicator.East, Lives: 3,
		Damage: damage, Archive: adjudicator.Pos{X: 5, Y: 3}, Options: []string{"Brakes"}}
	prog := [5]int{70, 490, 80, 90, 100} // L, M1, R, L, R
	for reg := 1; reg <= 5; reg++ {
		if mo.IsLocked(reg) {
			mo.Registers[reg-1] = prog[reg-1]
		} else {
			mo.Hand = append(mo.Hand, prog[reg-1])
		}
	}
	mo.Hand = append(mo.Hand, 110, 120)
	st.Robots = append(st.Robots, mo)
	return setup, st, adjudicator.Orders{Program: prog}, len(st.Robots) - 1
}

// resolveMo plays a whole turn with Mo's orders (the others do nothing but stay put:
// their programs are their hands' first cards, which do not reach row 3).
func resolveMo(t *testing.T, damage int, order string) (adjudicator.Robot, []adjudicator.Event) {
	t.Helper()
	setup, st, prog, mo := predictState(t, damage)
	s := mustParse(t, order)
	o := s.Orders()
	for reg := 1; reg <= 5; reg++ {
		if !st.Robots[mo].IsLocked(reg) {
			o.Program[reg-1] = prog.Program[reg-1]
		}
	}
	orders := make([]adjudicator.Orders, len(st.Robots))
	orders[0] = mustParse(t, "P490 P670 P70 P80 P430").Orders()
	orders[1] = mustParse(t, "P130 P520 P680").Orders()
	orders[3] = mustParse(t, "P540 P20 P90 P150 P690").Orders()
	orders[mo] = o
	next, evs, err := adjudicator.Resolve(setup, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	return next.Robots[next.Robot("Mo")], evs
}

// "If I would be destroyed then discard ... to prevent damage": judged per point as the
// damage arrives, from the damage plus the rest of the hit (adjudicator.View.Predict).
func TestPredictIWouldBeDestroyed(t *testing.T) {
	for _, tc := range []struct {
		name      string
		damage    int
		order     string
		prevented bool
		destroyed bool
		endDamage int
	}{
		{"9 damage: discards and survives", 9, "if I would be destroyed then discard Brakes to prevent damage", true, false, 9},
		{"9 damage, any option", 9, "discard any option to prevent damage if I would be destroyed", true, false, 9},
		{"9 damage, without the order", 9, "keep options", false, true, 0},
		{"9 damage, the order negated", 9, "if not I would be destroyed then discard Brakes to prevent damage", false, true, 0},
		{"5 damage: keeps the option", 5, "if I would be destroyed then discard Brakes to prevent damage", false, false, 6},
		{"5 damage, else branch", 5, "if I would be destroyed then discard Brakes to prevent damage else keep options", false, false, 6},
		{"5 damage, unless", 5, "unless I would be destroyed keep options, else discard Brakes to prevent damage", false, false, 6},
		{"9 damage, unless", 9, "unless I would be destroyed keep options, else discard Brakes to prevent damage", true, false, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, evs := resolveMo(t, tc.damage, tc.order)
			prevented := eventsOf(evs, "Mo", adjudicator.EvPrevented)
			destroyed := eventsOf(evs, "Mo", adjudicator.EvDestroyed)
			if got := len(prevented) == 1 && prevented[0].Option == "Brakes"; got != tc.prevented || len(prevented) > 1 {
				t.Errorf("prevented %+v; want Brakes discarded: %v", prevented, tc.prevented)
			}
			if (len(destroyed) > 0) != tc.destroyed {
				t.Errorf("destroyed %+v; want %v", destroyed, tc.destroyed)
			}
			if !tc.destroyed {
				if r.Damage != tc.endDamage || r.Lives != 3 {
					t.Errorf("Mo ends with %d damage, %d lives; want %d, 3", r.Damage, r.Lives, tc.endDamage)
				}
				if holds := slices.Contains(r.Options, "Brakes"); holds == tc.prevented {
					t.Errorf("Mo holds %v after the turn", r.Options)
				}
			}
		})
	}
}

// tractorProbe stands in for an option weapon whose effect is not in the engine yet
// (Tractor Beam: pull the robot your laser would hit one square toward you). When its
// holder fires, it asks the holder's orders about the first robot in the line of fire,
// with the pull as the Impact, and records the answers.
type tractorProbe struct {
	damage  int
	answers []string
}

func (*tractorProbe) Option() string { return "Tractor Beam" }

func (p *tractorProbe) Beams(v adjudicator.View, beams int) int {
	me := v.Robot()
	others := v.Others()
	for q := me.Pos.Step(me.Facing); q.X >= 0 && q.Y >= 0 && q.X < 8 && q.Y < 8; q = q.Step(me.Facing) {
		for _, o := range others {
			if o.Pos == q && !o.Destroyed {
				p.answers = append(p.answers, v.AskOption("Tractor Beam", "pull the target one square toward you?", o.Name,
					adjudicator.Impact{Move: me.Facing.Back(), Steps: 1, Damage: p.damage}))
				return beams
			}
		}
	}
	return beams
}

// "target would fall" / "target would be destroyed": Fred holds the Tractor Beam and
// turns east in register 1 and again in register 3, in line with Twonky beyond the pit
// at 4,5.
func TestPredictTarget(t *testing.T) {
	for _, tc := range []struct {
		name    string
		twonky  adjudicator.Pos // Twonky's square
		damage  int             // the probe's Impact damage
		order   string
		answers []string
	}{
		{"falls: use", adjudicator.Pos{X: 5, Y: 5}, 0, "if target would fall into a pit use Tractor Beam on Twonky", []string{"target=Twonky", "target=Twonky"}},
		{"falls, untargeted use", adjudicator.Pos{X: 5, Y: 5}, 0, "use Tractor Beam if target would fall", []string{"yes", "yes"}},
		{"would be destroyed by the fall", adjudicator.Pos{X: 5, Y: 5}, 0, "if target would be destroyed then use Tractor Beam", []string{"yes", "yes"}},
		{"another target named", adjudicator.Pos{X: 5, Y: 5}, 0, "if target would fall into a pit use Tractor Beam on Zoë", []string{"", ""}},
		{"pulled onto the floor", adjudicator.Pos{X: 6, Y: 5}, 0, "if target would fall into a pit use Tractor Beam on Twonky", []string{"", ""}},
		{"else branch", adjudicator.Pos{X: 6, Y: 5}, 0, "if target would fall use Tractor Beam else decline Tractor Beam", []string{"no", "no"}},
		{"not falling", adjudicator.Pos{X: 6, Y: 5}, 0, "if not target would fall use Tractor Beam", []string{"yes", "yes"}},
		{"damage would destroy", adjudicator.Pos{X: 6, Y: 5}, 10, "if target would be destroyed then use Tractor Beam", []string{"yes", "yes"}},
		{"damage would not", adjudicator.Pos{X: 6, Y: 5}, 2, "if target would be destroyed then use Tractor Beam", []string{"", ""}},
		{"I would be destroyed: unknown here", adjudicator.Pos{X: 5, Y: 5}, 0, "if I would be destroyed use Tractor Beam", []string{"", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setup, st := testGame(t)
			probe := &tractorProbe{damage: tc.damage}
			setup.Effects = []adjudicator.Effect{probe}
			fred := st.Robot("Fred")
			st.Robots[fred].Options = []string{"Tractor Beam"}
			tw := st.Robot("Twonky")
			st.Robots[tw].Pos, st.Robots[tw].Archive = tc.twonky, tc.twonky
			orders := make([]adjudicator.Orders, len(st.Robots))
			orders[fred] = mustParse(t, "P80 P70 P100 P10 P430\n"+tc.order).Orders()
			orders[1] = mustParse(t, "P130 P520 P680").Orders()
			orders[3] = mustParse(t, "P540 P20 P90 P150 P690").Orders()
			if _, _, err := adjudicator.Resolve(setup, st, orders); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(probe.answers, tc.answers) {
				t.Errorf("answers %q; want %q", probe.answers, tc.answers)
			}
		})
	}
}

// A forecast lays the phase programs as a turn does (seed 001, Phase-Programmed Options):
// Crab Legs' sideways step shows in the register it is programmed for.
func TestForecastPhasePrograms(t *testing.T) {
	setup, st := testGame(t)
	fred := st.Robot("Fred")
	st.Robots[fred].Options = []string{"Crab Legs"}
	s := mustParse(t, "Fred Turn 3\nP670 P70 P80 P100 P430\nuse Crab Legs in register 2 P490")
	f, err := Forecast(setup, st, "Fred", s)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Steps) < 2 {
		t.Fatalf("steps %+v", f.Steps)
	}
	got := f.Steps[1]
	if want := (adjudicator.Pos{X: 1, Y: 3}); got.Register != 2 || got.Pos != want || got.Facing != adjudicator.North {
		t.Errorf("register 2: %+v; want at %v facing N (Move 1 P490 with Rotate Left P70: one square left)", got, want)
	}
}
