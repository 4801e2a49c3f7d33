package roborally

import (
	"reflect"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// readMovePositions are a postal and a 2023 position that keep nothing (movememo.go), so
// each answer is read anew.
func readMovePositions(t testing.TB) []*position {
	var out []*position
	for _, kv := range []map[string]string{{}, {"rules": "2023"}} {
		k := Kind{}
		cfg, err := k.Configure(kv)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		p := pos.(*position)
		p.memo.off = true
		out = append(out, p)
	}
	return out
}

// checkReadIsCheckFile fails t unless CheckRead of what ReadMove read of text gives what
// CheckFile gives, the first time and again, and for a ReadMove of other lines.
func checkReadIsCheckFile(t *testing.T, p *position, seat int, text, file string) {
	t.Helper()
	want := p.CheckFile(seat, text, file)
	m := Kind{}.ReadMove(text, file)
	for i := range 2 { // read ahead, then checked already: read again
		if got := p.CheckRead(seat, m); !reflect.DeepEqual(got, want) {
			t.Fatalf("CheckRead #%d of %q (file %q) seat %d:\n%+v\nwant CheckFile's\n%+v", i+1, text, file, seat, got, want)
		}
	}
	other := Kind{}.ReadMove("if damage > 4 then power down\n", "")
	other.Lines, other.File = text, file // another text's reading: not used
	if got := p.CheckRead(seat, other); !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckRead of %q (file %q) with another text's reading:\n%+v\nwant\n%+v", text, file, got, want)
	}
	if got := p.CheckRead(seat, game.ReadMove{Lines: text, File: file}); !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckRead of %q (file %q) read by no one:\n%+v\nwant\n%+v", text, file, got, want)
	}
}

// A move read ahead is checked as CheckFile checks its lines: accepted or refused, text
// or YAML, by any seat.
func TestCheckReadIsCheckFile(t *testing.T) {
	for _, p := range readMovePositions(t) {
		prog := programLine(p.setup, p.State, 0, 1)
		for _, text := range []string{
			prog + "\n",
			"\n\n" + prog + "\nif damage > 4 then power down\n",
			"if damage > 4 then power down\n",
			"P999\n",
			"program: [" + prog + "]\n",
			"---\nprogram: [Move 1]\n",
			"",
			"power down\nmove 3 please\n",
		} {
			for _, file := range []string{"", "orders.yaml", "orders.txt"} {
				for _, seat := range []int{0, 1, 2, -1} {
					checkReadIsCheckFile(t, p, seat, text, file)
				}
			}
		}
	}
}

func FuzzReadMove(f *testing.F) {
	f.Add(0, "\n\nP999\n", "")
	f.Add(1, "---\nprogram: [Move 1]\n", "orders.yaml")
	f.Add(0, "if damage > 4 then power down\n", "")
	ps := readMovePositions(f)
	f.Fuzz(func(t *testing.T, seat int, text, file string) {
		for _, p := range ps {
			checkReadIsCheckFile(t, p, seat, text, file)
		}
	})
}
