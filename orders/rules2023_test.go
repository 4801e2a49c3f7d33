package orders

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// game2023 is a new 2023 game on the shipped docking-run course, robot A's hand set.
func game2023(t *testing.T, hand ...adjudicator.CardKind) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.Rules2023(), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	st.Robots[0].Hand = nil
	for _, k := range hand {
		st.Robots[0].Hand = append(st.Robots[0].Hand, int(k))
	}
	return s, st
}

func TestSheet2023(t *testing.T) {
	hand := []adjudicator.CardKind{adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardAgain, adjudicator.CardLeft,
		adjudicator.CardSpam, adjudicator.CardUTurn, adjudicator.CardPowerUp, adjudicator.CardMove3, adjudicator.CardBackUp}
	k := func(ks ...adjudicator.CardKind) (p [adjudicator.Registers]int) {
		for i, x := range ks {
			p[i] = int(x)
		}
		return p
	}
	tests := []struct {
		name, sheet string
		haywire     int // register (1-5) holding a face-down Haywire, 0 none
		want        string
		prog        [adjudicator.Registers]int
	}{
		{name: "names", sheet: "Robot: A\nTurn: 1\nMove 1, Again, Rotate Left, SPAM, U-Turn\n",
			prog: k(adjudicator.CardMove1, adjudicator.CardAgain, adjudicator.CardLeft, adjudicator.CardSpam, adjudicator.CardUTurn)},
		{name: "short words", sheet: "Robot: A\nTurn: 1\nM1 M1 powerup back move3\n",
			prog: k(adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardPowerUp, adjudicator.CardBackUp, adjudicator.CardMove3)},
		{name: "printed names", sheet: "Robot: A\nTurn: 1\nMove 1, Move Back, Rotate Left, Power Up, U-Turn\n",
			prog: k(adjudicator.CardMove1, adjudicator.CardBackUp, adjudicator.CardLeft, adjudicator.CardPowerUp, adjudicator.CardUTurn)},
		{name: "yaml", sheet: "robot: A\nturn: 1\nprogram: [Move 1, Again, Left, Power Up, U-Turn]\n",
			prog: k(adjudicator.CardMove1, adjudicator.CardAgain, adjudicator.CardLeft, adjudicator.CardPowerUp, adjudicator.CardUTurn)},
		{name: "three of two", sheet: "Robot: A\nTurn: 1\nMove 1, Move 1, Move 1, Left, U-Turn\n", want: "you hold 2 Move 1"},
		{name: "not held", sheet: "Robot: A\nTurn: 1\nMove 2, Move 1, Again, Left, U-Turn\n", want: "Move 2 is not in your hand"},
		{name: "priority", sheet: "Robot: A\nTurn: 1\nP490 Move 1, Again, Left, U-Turn\n", want: "2023 cards have no priority numbers"},
		{name: "haywire slot written", sheet: "Robot: A\nTurn: 1\nMove 1, Again, Left, SPAM, U-Turn\n", haywire: 2, want: "face-down Haywire Stall"},
		{name: "haywire slot dashed", sheet: "Robot: A\nTurn: 1\nMove 1, -, Left, SPAM, U-Turn\n", haywire: 2,
			prog: k(adjudicator.CardMove1, adjudicator.NoCard, adjudicator.CardLeft, adjudicator.CardSpam, adjudicator.CardUTurn)},
		{name: "haywire slot 1 dashed", sheet: "Robot: A\nTurn: 1\n-, Back Up, Rotate Left, SPAM, U-Turn\n", haywire: 1,
			prog: k(adjudicator.NoCard, adjudicator.CardBackUp, adjudicator.CardLeft, adjudicator.CardSpam, adjudicator.CardUTurn)},
		{name: "haywire slot left out", sheet: "Robot: A\nTurn: 1\nMove 1, Left, SPAM, U-Turn\n", haywire: 2,
			prog: k(adjudicator.CardMove1, adjudicator.NoCard, adjudicator.CardLeft, adjudicator.CardSpam, adjudicator.CardUTurn)},
		{name: "four cards", sheet: "Robot: A\nTurn: 1\nMove 1, Left, SPAM, U-Turn\n", want: "expected 5 cards"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, st := game2023(t, hand...)
			if tc.haywire > 0 {
				st.Robots[0].Mat.Haywire[tc.haywire-1] = int(adjudicator.CardHaywire3)
			}
			parse := Parse
			if tc.name == "yaml" {
				parse = ParseYAML
			}
			sheet, err := parse([]byte(tc.sheet))
			if err != nil {
				t.Fatal(err)
			}
			rep := Validate(s, st, "A", sheet)
			got := ""
			if errs := rep.Errors(); len(errs) > 0 {
				got = errs[0].String()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				o := sheet.OwnOrders(&st.Robots[0])
				if o.Program != tc.prog {
					t.Errorf("program %v, want %v", o.Program, tc.prog)
				}
				if errs := s.CheckOrders(st, 0, o); len(errs) > 0 {
					t.Errorf("engine refuses the checked program: %v", errs)
				}
			}
		})
	}
}

// A card named by kind alone is a 2023 card: a postal game asks for its priority.
func TestPostalSheetNeedsPriorities(t *testing.T) {
	s, st := testGame(t)
	sheet, err := Parse([]byte(fmt.Sprintf("Robot: %s\nTurn: %d\nMove 1, Move 2, Left, Right, U-Turn\n", st.Robots[0].Name, st.Turn)))
	if err != nil {
		t.Fatal(err)
	}
	rep := Validate(s, st, st.Robots[0].Name, sheet)
	if errs := rep.Errors(); len(errs) == 0 || !strings.Contains(errs[0].String(), "Move 1 needs its priority") {
		t.Errorf("got %v", rep)
	}
}

func TestUpgradeOrders2023(t *testing.T) {
	hand := []adjudicator.CardKind{adjudicator.CardMove1, adjudicator.CardMove2, adjudicator.CardLeft, adjudicator.CardRight, adjudicator.CardUTurn}
	tests := []struct {
		name, orders string
		energy       int
		want         string
		upgrade      adjudicator.UpgradeOrders
	}{
		{name: "all three", orders: "uninstall Brakes\ninstall Mini Howitzer\ndraw upgrade\n", energy: 4,
			upgrade: adjudicator.UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "Mini Howitzer", Draw: true}},
		{name: "buy", orders: "buy an upgrade\n", energy: 1, upgrade: adjudicator.UpgradeOrders{Draw: true}},
		{name: "too poor", orders: "install Mini Howitzer\ndraw upgrade\n", energy: 3, want: "costs 4 energy and the robot has 3"},
		{name: "not drawn", orders: "install Zoop\n", energy: 3, want: "not among your uninstalled upgrades"},
		{name: "conditional install", orders: "if facing N install Zoop\n", energy: 5, want: "cannot be conditional"},
		// Issue 23: the drawn card installed in the same phase (seed 004, Phase 1), with a
		// fallback; a second install or draw is refused, not dropped in silence.
		{name: "install drawn", orders: "install the card I draw if I can afford it\n", energy: 1,
			upgrade: adjudicator.UpgradeOrders{Draw: true, InstallDrawn: true}},
		{name: "install drawn else", orders: "install the card I draw, else install Mini Howitzer\n", energy: 5,
			upgrade: adjudicator.UpgradeOrders{Install: "Mini Howitzer", Draw: true, InstallDrawn: true}},
		{name: "draw and install it", orders: "draw an upgrade and install it\n", energy: 2,
			upgrade: adjudicator.UpgradeOrders{Draw: true, InstallDrawn: true}},
		{name: "fallback too dear", orders: "install the card I draw else install Mini Howitzer\n", energy: 3, want: "costs 4 energy and the robot has 3"},
		{name: "two installs", orders: "install Mini Howitzer\ninstall Zoop\n", energy: 9, want: "a second install (Zoop after Mini Howitzer"},
		{name: "two draws", orders: "draw upgrade\ndraw upgrade\n", energy: 9, want: "a second \"draw upgrade\""},
		{name: "two draws one line", orders: "draw upgrade; buy an upgrade\n", energy: 9, want: "a second \"draw upgrade\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, st := game2023(t, hand...)
			r := &st.Robots[0]
			r.Mat.Energy = tc.energy
			r.Options = []string{"Brakes"}
			r.Mat.Collection = []string{"Mini Howitzer"}
			sheet, err := Parse([]byte("Robot: A\nTurn: 1\nMove 1, Move 2, Left, Right, U-Turn\n" + tc.orders))
			if err != nil {
				t.Fatal(err)
			}
			rep := Validate(s, st, "A", sheet)
			got := ""
			if errs := rep.Errors(); len(errs) > 0 {
				got = errs[0].String()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				o := sheet.OwnOrders(r)
				if fmt.Sprint(o.Upgrade) != fmt.Sprint(tc.upgrade) {
					t.Errorf("upgrade %+v, want %+v", o.Upgrade, tc.upgrade)
				}
				if _, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{o, {Shutdown: true}}); err != nil {
					t.Errorf("the engine refuses the checked orders: %v", err)
				}
			}
		})
	}
	// A postal game has no upgrade phase.
	ps, pst := testGame(t)
	sheet, err := Parse([]byte("draw upgrade\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rep := Validate(ps, pst, pst.Robots[0].Name, sheet); !strings.Contains(rep.String(), "upgrades belong to the 2023 rules") {
		t.Errorf("postal: %v", rep)
	}
}

// The 2023 sheet of docs/orders.md ("The 2023 rules") reads and checks as the doc says:
// its lines are read from the page (below its Robot and Turn headers, here robot A in
// turn 1 of the test's game), so the page and the test cannot drift apart.
func TestDocs2023Sheet(t *testing.T) {
	b, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n    Robot: Twonky\n    Turn: 4\n")
	if !ok {
		t.Fatal("docs/orders.md's 2023 sheet (Robot: Twonky, Turn: 4) is gone")
	}
	text := "Robot: A\nTurn: 1\n"
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		text += strings.TrimPrefix(l, "    ") + "\n"
	}
	if !strings.Contains(text, "install Deflector Shield") || !strings.Contains(text, "shut down") {
		t.Fatalf("docs/orders.md's 2023 sheet lost the lines this test checks:\n%s", text)
	}
	s, st := game2023(t, adjudicator.CardMove1, adjudicator.CardAgain, adjudicator.CardLeft, adjudicator.CardSpam, adjudicator.CardUTurn)
	r := &st.Robots[0]
	r.Mat.Energy = 3
	r.Options = []string{"Brakes", "Zoop"}
	r.Mat.Collection = []string{"Deflector Shield"}
	sheet, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if rep := Validate(s, st, "A", sheet); !rep.OK() {
		t.Fatalf("the doc's sheet: %v", rep)
	}
	o := sheet.OwnOrders(r)
	want := adjudicator.UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "Deflector Shield", Draw: true}
	if fmt.Sprint(o.Upgrade) != fmt.Sprint(want) {
		t.Errorf("upgrade %+v", o.Upgrade)
	}
	next, ev, err := adjudicator.Resolve(s, st, []adjudicator.Orders{o, {Shutdown: true}})
	if err != nil {
		t.Fatal(err)
	}
	shut := false
	for _, e := range ev {
		shut = shut || (e.Kind == adjudicator.EvShutdown && e.Robot == "A")
	}
	if !shut || next.Robots[0].Mat.Energy != 0 || fmt.Sprint(next.Robots[0].Options) != "[Zoop Deflector Shield]" {
		t.Errorf("shut down %v, energy %d, upgrades %v", shut, next.Robots[0].Mat.Energy, next.Robots[0].Options)
	}
}
