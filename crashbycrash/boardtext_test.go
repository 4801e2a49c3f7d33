package crashbycrash

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestBoardTextGolden: the text board of a position some turns into a seeded game
// (testdata/board.golden; go test -run BoardText -update rewrites it). Every line fits
// 40 columns, for phones.
func TestBoardTextGolden(t *testing.T) {
	s := midGame(t, 4, 14)
	got := BoardText(s) + BoardLegend + "\n"
	for i, l := range strings.Split(got, "\n") {
		if len([]rune(l)) > 40 {
			t.Errorf("line %d is %d columns: %q", i+1, len([]rune(l)), l)
		}
	}
	const file = "testdata/board.golden"
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("BoardText differs from %s (-update to accept):\n%s", file, got)
	}
}
