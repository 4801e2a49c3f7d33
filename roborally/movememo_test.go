package roborally

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// A position keeps what it decoded and checked (movememo.go); what it answers with the
// memo warm must be what a position fresh from the same bytes answers, whatever it was
// asked before: another seat's sheet, another sheet of the same seat, the same text as
// another file, the moves it folded. And nothing kept is changed by those who read it.
func TestMemoAnswersAsAFreshPosition(t *testing.T) {
	for _, kv := range []map[string]string{{}, {"rules": "2023"}} {
		names, load := memoGame(t, kv)
		fresh := func() *position { return load(true) } // every answer read anew
		warm := load(false)
		type sheet struct {
			seat       int
			file, text string
		}
		var sheets []sheet
		for seat := range names {
			for seed := int64(1); seed <= 3; seed++ {
				prog := programLine(warm.setup, warm.State, seat, seed)
				sheets = append(sheets,
					sheet{seat, "", "# a player's sheet\n" + prog + "\n"},
					sheet{seat, "", "if damage > 4 then power down\n"},
					sheet{seat, "", prog + "\nif damage > 2 then power down\n"},
					sheet{seat, "orders.yaml", "program: [" + strings.ReplaceAll(prog, " ", ", ") + "]\norders:\n  - power down if damage > 3\n"},
					sheet{seat, "orders.txt", prog + "\n"})
			}
		}
		folds := map[int]game.Move{}
		for i, s := range sheets {
			c := warm.CheckFile(s.seat, s.text, s.file)
			if want := fresh().CheckFile(s.seat, s.text, s.file); !reflect.DeepEqual(c, want) {
				t.Fatalf("%v sheet %d: Check with the memo warm\n%+v\nwant\n%+v", kv, i, c, want)
			}
			if !c.OK() {
				if s.file != "orders.yaml" {
					t.Fatalf("%v sheet %d %q refused: %v", kv, i, s.text, c.Problems)
				}
				continue
			}
			// what Check kept for Acknowledge is what reading the sheet again gives
			kept, ok := warm.checked(s.seat, s.file, s.text)
			if !ok {
				t.Fatalf("%v sheet %d: Check kept nothing", kv, i)
			}
			f0 := fresh()
			if again, _ := f0.acknowledged(s.seat, s.text, s.file); !reflect.DeepEqual(kept, again) {
				t.Fatalf("%v sheet %d: Check kept\n%+v\nreading it again gives\n%+v", kv, i, kept, again)
			}
			f, ok := folds[s.seat]
			if ok {
				f = warm.Fold(s.seat, f, c.Move)
				want := fresh().Fold(s.seat, folds[s.seat], c.Move)
				if !reflect.DeepEqual(f, want) {
					t.Fatalf("%v sheet %d: Fold with the memo warm\n%+v\nwant\n%+v", kv, i, f, want)
				}
			} else {
				f = c.Move
			}
			folds[s.seat] = f
			if got, want := warm.Complete(s.seat, f), fresh().Complete(s.seat, f); got != want {
				t.Fatalf("%v sheet %d: Complete %v with the memo warm, want %v", kv, i, got, want)
			}
			// every sheet checked so far acknowledged, by every seat: only the one Check
			// accepted for that seat and file reads as it
			for _, o := range sheets[:i+1] {
				for n := range len(names) * 2 {
					seat, file := n%len(names), o.file
					if n >= len(names) { // the same text as another file
						file = map[string]string{"": "orders.yaml", "orders.txt": "orders.yml", "orders.yaml": ""}[file]
					}
					at := game.AckTurn{Game: "g", Player: names[seat], Turn: 1, Deadline: "soon", Missing: 2, File: file, Fold: folds[seat]}
					got, err := warm.Acknowledge(seat, o.text, at)
					if err != nil {
						t.Fatal(err)
					}
					want, err := fresh().Acknowledge(seat, o.text, at)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("%v: sheet %q of seat %d acknowledged as file %q for seat %d after sheet %d:\n%s\nwant\n%s",
							kv, o.text, o.seat+1, file, seat+1, i, got, want)
					}
				}
			}
		}
		if len(warm.memo.moves) == 0 {
			t.Fatalf("%v: no move kept", kv)
		}
		for data, kept := range warm.memo.moves {
			var mv move
			if err := json.Unmarshal([]byte(data), &mv); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(kept, mv) {
				t.Errorf("%v: the move kept for %s was changed: %+v", kv, data, kept)
			}
		}
	}
}

// The memo is bounded: a position asked about ever more moves keeps at most
// maxMovesKept of them.
func TestMemoIsBounded(t *testing.T) {
	p := twoRobotStart(t)
	for i := range 3 * maxMovesKept {
		data, _ := json.Marshal(move{Missed: "powerdown"})
		data = append(data, strings.Repeat(" ", i)...) // the same move, other bytes
		if !p.Complete(0, game.Move{Data: data}) {
			t.Fatalf("move %d is not complete", i)
		}
		if n := len(p.memo.moves); n > maxMovesKept || n == 0 {
			t.Fatalf("%d moves kept", n)
		}
	}
}

// BenchmarkJudgeASheet is what the judge asks a position of one accepted program sheet
// of a batch (Check, then Fold over the seat's earlier standing orders, Complete,
// Acknowledge), with the memo and, for the figures before it, without.
func BenchmarkJudgeASheet(b *testing.B) {
	for _, tc := range []struct {
		name string
		off  bool
	}{{"memo", false}, {"no-memo", true}} {
		b.Run(tc.name, func(b *testing.B) {
			k := Kind{}
			cfg, err := k.Configure(map[string]string{})
			if err != nil {
				b.Fatal(err)
			}
			pos, err := k.Start(cfg, []string{"Ada", "Boris", "Cleo"}, 7)
			if err != nil {
				b.Fatal(err)
			}
			p := pos.(*position)
			p.memo.off = tc.off
			text := programLine(p.setup, p.State, 0, 1) + "\nif damage > 4 then power down\n"
			earlier := p.Check(0, "if damage > 2 then power down\n").Move
			set, err := narrate.BuiltIn() // the judge's templates, made once
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				c := p.Check(0, text)
				f := p.Fold(0, earlier, c.Move)
				p.Complete(0, f)
				if _, err := p.Acknowledge(0, text, game.AckTurn{Game: "g", Player: "Ada", Turn: 1, Missing: 2, Fold: f, Render: set.Text}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The checks kept are bounded too, the oldest forgotten first; one forgotten is read
// again as Check read it.
func TestChecksKeptAreBounded(t *testing.T) {
	p := twoRobotStart(t)
	text := func(i int) string {
		return fmt.Sprintf("if damage > %d then power down\n%s", 1+i%4, strings.Repeat("\n", i/4))
	}
	for i := range 2 * checksKept {
		if c := p.Check(0, text(i)); !c.OK() {
			t.Fatalf("sheet %d refused: %v", i, c.Problems)
		}
		if n := len(p.memo.checks); n > checksKept || n != min(i+1, checksKept) {
			t.Fatalf("after sheet %d, %d checks kept", i, n)
		}
	}
	if _, ok := p.checked(0, "", text(checksKept-1)); ok {
		t.Error("the oldest check is still kept")
	}
	if _, ok := p.checked(0, "", text(2*checksKept-1)); !ok {
		t.Error("the newest check is not kept")
	}
}

// A position is asked from several goroutines at once (a batch's readers check sheets
// with it while the writer folds and acknowledges others: judge/movesahead.go); each
// answer is what a position of its own, fresh from the same bytes, gives. Run it with
// -race.
func TestAPositionAnswersManyAtOnce(t *testing.T) {
	for _, kv := range []map[string]string{{}, {"rules": "2023"}} {
		names, load := memoGame(t, kv)
		shared := load(false)
		type sheet struct {
			seat int
			text string
		}
		var sheets []sheet
		for seat := range names {
			for seed := int64(1); seed <= 4; seed++ {
				prog := programLine(shared.setup, shared.State, seat, seed)
				sheets = append(sheets, sheet{seat, prog + "\nif damage > 2 then power down\n"}, sheet{seat, "if damage > 4 then power down\n"})
			}
		}
		type answer struct {
			checked game.Checked
			fold    game.Move
			ack     string
			due     []int
		}
		ask := func(p *position, s sheet, earlier game.Move) answer {
			var a answer
			a.checked = p.CheckRead(s.seat, Kind{}.ReadMove(s.text, ""))
			a.fold = p.Fold(s.seat, earlier, a.checked.Move)
			var err error
			a.ack, err = p.Acknowledge(s.seat, s.text, game.AckTurn{Game: "g", Player: names[s.seat], Turn: 1, Missing: 1, Fold: a.fold})
			if err != nil {
				t.Error(err)
			}
			a.due = p.Due()
			return a
		}
		earlier := shared.Check(0, "if damage > 1 then power down\n").Move
		want := make([]answer, len(sheets))
		for i, s := range sheets {
			want[i] = ask(load(true), s, earlier)
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for round := range 3 {
					for i := range sheets {
						i := (i + g*5 + round) % len(sheets)
						if got := ask(shared, sheets[i], earlier); !reflect.DeepEqual(got, want[i]) {
							t.Errorf("%v goroutine %d sheet %d:\n%+v\nwant\n%+v", kv, g, i, got, want[i])
							return
						}
					}
				}
			})
		}
		wg.Wait()
	}
}

// memoGame starts a game of three robots (seed 7) with settings kv and returns their
// names and a loader of positions from the start's bytes, each a position of its own,
// with its memo off (every answer read anew) or on.
func memoGame(t *testing.T, kv map[string]string) (names []string, load func(memoOff bool) *position) {
	t.Helper()
	k := Kind{}
	cfg, err := k.Configure(kv)
	if err != nil {
		t.Fatal(err)
	}
	names = []string{"Ada", "Boris", "Cleo"}
	start, err := k.Start(cfg, names, 7)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := start.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return names, func(memoOff bool) *position {
		p, err := k.Load(cfg, enc)
		if err != nil {
			t.Fatal(err)
		}
		p.(*position).memo.off = memoOff
		return p.(*position)
	}
}

// twoRobotStart is the start of a postal game of two robots, seed 7.
func twoRobotStart(t *testing.T) *position {
	t.Helper()
	k := Kind{}
	cfg, err := k.Configure(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	return pos.(*position)
}
