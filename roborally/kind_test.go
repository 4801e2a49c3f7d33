package roborally

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
)

// programLine is a program the robot may play this turn, written as a player writes
// it: cards by priority (postal), by kind (2023).
func programLine(setup *adjudicator.Setup, st *adjudicator.State, seat int, seed int64) string {
	p := RandomProgram(setup, st, seat, seed, st.Turn)
	if setup.Rules.Own() {
		return OwnProgramText(p)
	}
	var cards []string
	for _, c := range p {
		if c != 0 {
			cards = append(cards, fmt.Sprintf("P%d", c))
		}
	}
	return strings.Join(cards, " ")
}

// A whole game through the seam, under each ruleset: each due seat's program written
// out, read back by Check and played, one seat missing every third turn (the
// missed-orders policy); every turn is the engine's own turn (Prepare, Resolve) on the
// same orders, the position survives encoding, and the same moves give the same bytes.
func TestWholeGameThroughTheSeam(t *testing.T) {
	for _, tc := range []struct {
		name string
		kv   map[string]string
	}{
		{"postal", map[string]string{}},
		{"crash and burn", map[string]string{"options": "crash-burn"}},
		{"armed and dangerous", map[string]string{"options": "armed-dangerous", "rules.max_options": "3"}},
		{"2023", map[string]string{"rules": "2023"}},
		{"2023 act fast", map[string]string{"rules": "2023", ActFastKey: "yes", "less-deadly": "yes"}},
		{"postal autopilot", map[string]string{"missed": MissedAutopilot}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := Kind{}
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"Ada", "Boris", "Cleo"}
			pos, err := k.Start(cfg, names, 7)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := k.Start(cfg, names, 7) // played alongside: the same bytes
			missed, checked := 0, 0
			for turn := 1; turn <= 12 && !pos.Over(); turn++ {
				p := pos.(*position)
				moves := map[int]game.Move{}
				sheets := make([]*orders.Sheet, len(names))
				for _, seat := range pos.Due() {
					if seat == 1 && turn%3 == 0 {
						moves[seat] = pos.Autopilot(seat, int64(turn))
						missed++
						continue
					}
					text := "# a player's sheet\n" + programLine(p.setup, p.State, seat, int64(turn))
					ch := pos.Check(seat, text)
					if !ch.OK() {
						moves[seat] = pos.Autopilot(seat, int64(turn))
						continue
					}
					checked++
					if ch.Move.Text == "" || !strings.Contains(ch.Forecast, "Program:\n  register 1: ") {
						t.Errorf("turn %d seat %d: move %q, forecast %q", turn, seat, ch.Move.Text, ch.Forecast)
					}
					moves[seat] = ch.Move
					var mv move
					if err := json.Unmarshal(ch.Move.Data, &mv); err != nil || mv.Sheet == nil {
						t.Fatalf("turn %d: move data %s: %v", turn, ch.Move.Data, err)
					}
					sheets[seat] = Effective(p.Standing[seat], mv.Sheet)
				}
				// the engine's own turn on the same orders
				st := p.State.Clone()
				prep := Prepare(p.setup, st, sheets, func(int) string { return cfg.(Config).MissedPolicy() }, p.Seed, st.Turn)
				want, _, err := adjudicator.Resolve(p.setup, st, prep.Orders)
				if err != nil {
					t.Fatal(err)
				}
				seed := game.TurnSeed(7, turn)
				res, err := pos.Play(moves, seed)
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				res2, err := again.Play(moves, seed)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(res.Next.(*position).State)
				w, _ := json.Marshal(want)
				if !bytes.Equal(got, w) {
					t.Fatalf("turn %d: the seam's turn differs from the engine's", turn)
				}
				b1, _ := res.Next.Encode()
				b2, _ := res2.Next.Encode()
				if !bytes.Equal(b1, b2) {
					t.Fatalf("turn %d: the same moves gave different positions", turn)
				}
				back, err := k.Load(cfg, b1)
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				if b3, _ := back.Encode(); !bytes.Equal(b1, b3) {
					t.Fatalf("turn %d: the position changed through Encode and Load", turn)
				}
				rep := back.Report(0, res.Events)
				if !strings.Contains(rep.Text, "The robots") || len(rep.Picture) == 0 {
					t.Fatalf("turn %d: report %q, %d picture bytes", turn, rep.Text, len(rep.Picture))
				}
				pos, again = back, res2.Next
			}
			if checked == 0 || missed == 0 {
				t.Fatalf("%d sheets checked, %d missed: the game played nothing to compare", checked, missed)
			}
			if len(pos.Standings()) != len(names) {
				t.Fatalf("standings %v", pos.Standings())
			}
		})
	}
}

// A missed turn plays the game's policy, as the judge's RoboRally path does: powered
// down (postal), shut down (2023), Act Fast's random program.
func TestAutopilotPlaysThePolicy(t *testing.T) {
	for _, tc := range []struct {
		kv   map[string]string
		want string
	}{
		{map[string]string{}, "powered down this turn"},
		{map[string]string{"rules": "2023"}, "shut down this round"},
		{map[string]string{"rules": "2023", ActFastKey: "yes"}, "Act Fast filled its registers"},
		{map[string]string{"missed": MissedRandom}, "a random program was played"},
		{map[string]string{"missed": MissedAutopilot}, "the autopilot played"},
	} {
		k := Kind{}
		cfg, err := k.Configure(tc.kv)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 3)
		if err != nil {
			t.Fatal(err)
		}
		moves := map[int]game.Move{}
		for _, s := range pos.Due() {
			moves[s] = pos.Autopilot(s, 1)
		}
		res, err := pos.Play(moves, 1)
		if err != nil {
			t.Fatal(err)
		}
		if story := strings.Join(res.Story, "\n"); !strings.Contains(story, "Ada sent no orders: ") || !strings.Contains(story, tc.want) {
			t.Errorf("%v: story %q, want %q", tc.kv, story, tc.want)
		}
		if rep := res.Next.Report(0, res.Events); !strings.Contains(rep.Text, "For you: ") {
			t.Errorf("%v: the report does not tell Ada what was played for her:\n%s", tc.kv, rep.Text)
		}
	}
}

// Standing orders are kept in the position from turn to turn, and a later sheet's
// answer replaces an earlier one (orders.Merge), as on the judge's path.
func TestStandingOrdersStayInThePosition(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	p := pos.(*position)
	ch := pos.Check(0, programLine(p.setup, p.State, 0, 1)+"\nif damage > 3 power down\n")
	if !ch.OK() {
		t.Fatal(ch.Problems)
	}
	res, err := pos.Play(map[int]game.Move{0: ch.Move, 1: pos.Autopilot(1, 1)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	np := res.Next.(*position)
	if s := np.Standing[0]; s == nil || len(s.Rules) != 1 || s.HasProgram() {
		t.Fatalf("standing after turn 1: %+v", s)
	}
	if ch := res.Next.Check(0, programLine(np.setup, np.State, 0, 2)); !strings.Contains(ch.Forecast, "Standing orders in force:\n  if damage > 3 then power down") {
		t.Fatalf("the acknowledgement does not show the standing orders in force:\n%s", ch.Forecast)
	}
	if !strings.Contains(res.Next.Report(0, res.Events).Text, "Your standing orders") {
		t.Fatal("the report does not show the standing orders")
	}
	if priv := res.Next.(game.Parts).PrivateReport(0, res.Events).Text; !strings.Contains(priv, "Your hand for turn 2") ||
		!strings.Contains(priv, "Your standing orders") || strings.Contains(priv, "The robots") {
		t.Fatalf("the private part:\n%s", priv)
	}
	if np.Standing[1] != nil {
		t.Fatalf("a missed turn left standing orders: %+v", np.Standing[1])
	}
}

// Check says where and what: the line and column of the mail, the card not in hand.
func TestCheckSaysWhere(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	ch := pos.Check(0, "\n\n\nP999 P998 P997 P996 P995\n")
	if ch.OK() {
		t.Fatal("cards not in hand were accepted")
	}
	if ch.Problems[0].Line != 4 {
		t.Fatalf("problems %v: want line 4", ch.Problems)
	}
	if ch := pos.Check(0, "\nthis is not a sheet at all {\n"); ch.OK() || ch.Problems[0].Line == 0 {
		t.Fatalf("prose read as a sheet: %v", ch.Problems)
	}
	if ch := pos.Check(7, "P1"); ch.OK() {
		t.Fatal("a seat that is not there was checked")
	}
}

// Settings: unknown keys and values are refused with their name; the variants need the
// 2023 rules.
func TestConfigure(t *testing.T) {
	k := Kind{}
	for _, kv := range []map[string]string{
		{"course": "no-such-course"},
		{"rules": "1066"},
		{"missed": "sometimes"},
		{"lighter": "yes"},
		{"rules": "2023", "lighter": "perhaps"},
		{"colour": "blue"},
		{"rules": "2023", "options": "crash-burn"},
		{"rules.name": "mine"},
		{ActFastKey: "yes", "rules": "2023", "missed": "autopilot"},
	} {
		if _, err := k.Configure(kv); err == nil {
			t.Errorf("%v accepted", kv)
		}
	}
	c, err := k.Configure(map[string]string{"rules": "2023", "lighter": "yes", ActFastKey: "yes"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := c.Encode()
	back, err := k.LoadConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.Text() != c.Text() || !back.(Config).Rules.Lighter || back.(Config).MissedPolicy() != MissedRandom {
		t.Fatalf("settings through Encode and LoadConfig: %+v", back)
	}
}

// Hostile stored bytes are an error, never a panic, never a game played from them.
func TestLoadRefusesHostileBytes(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	good, _ := pos.Encode()
	for _, b := range []string{"", "null", "{}", `{"seed":1,"state":{"robots":[]}}`, `{"state":5}`,
		strings.Replace(string(good), `"standing":[null,null]`, `"standing":[null]`, 1)} {
		if _, err := k.Load(cfg, []byte(b)); err == nil {
			t.Errorf("%q loaded", b)
		}
	}
	for _, b := range []string{"", "[]", `{"course":""}`, `{"course":"x","rules":{"cards":"nonsense"}}`} {
		if _, err := k.LoadConfig([]byte(b)); err == nil {
			t.Errorf("settings %q loaded", b)
		}
	}
}

func FuzzLoad(f *testing.F) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	good, _ := pos.Encode()
	f.Add(good)
	f.Add([]byte(`{"seed":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := k.Load(cfg, b)
		if err != nil {
			return
		}
		_ = p.Due()
		_ = p.Standings()
	})
}

// The scenario corpus plays through the seam (rallyjudge resolve --game roborally) as
// it plays through the scenario package: every expectation holds, the same JSON.
func TestScenarioCorpusThroughTheSeam(t *testing.T) {
	files, err := filepath.Glob("../adjudicator/testdata/scenarios/*.scn")
	if err != nil || len(files) < 100 {
		t.Fatalf("%d scenario files: %v", len(files), err)
	}
	if testing.Short() {
		files = files[:100]
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Kind{}.RunScenario(string(b))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		s, err := scenario.Parse("scenario", string(b)) // its name is in the JSON
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := res.JSON()
		if !bytes.Equal(out, want) {
			t.Errorf("%s: the seam's result differs from the scenario package's", filepath.Base(path))
		}
	}
	if _, err := (Kind{}).RunScenario("expect Nobody at 1,1\n"); err == nil {
		t.Error("a scenario that cannot hold was passed")
	}
}

// A player's mail is hostile: Check says what is wrong, never panics, and what it
// accepts Play plays.
func FuzzCheck(f *testing.F) {
	k := Kind{}
	cfg, _ := k.Configure(map[string]string{"rules": "2023"})
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	p := pos.(*position)
	f.Add(0, programLine(p.setup, p.State, 0, 1)+"\nif damage > 1 shut down\n")
	f.Add(1, "---\nprogram: [Move 1]\n")
	f.Add(0, "\n\nP999\n")
	f.Fuzz(func(t *testing.T, seat int, text string) {
		ch := pos.Check(seat, text)
		if !ch.OK() {
			return
		}
		moves := map[int]game.Move{}
		for _, s := range pos.Due() {
			moves[s] = pos.Autopilot(s, 1)
		}
		moves[seat] = ch.Move
		if _, err := pos.Play(moves, 1); err != nil {
			t.Fatalf("accepted orders %q do not play: %v", text, err)
		}
	})
}
