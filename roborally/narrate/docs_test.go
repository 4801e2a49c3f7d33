package narrate

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// docBlock is a fenced block of a guide: its info string and its text.
type docBlock struct {
	line int
	info string
	text string
}

func fencedBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	var cur *docBlock
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &docBlock{line: i + 1, info: strings.TrimSpace(strings.TrimPrefix(l, "```"))}
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += l + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block is never closed", path, cur.line)
	}
	return out
}

var stateSpec = regexp.MustCompile(`^([a-z0-9-]+)/([0-9]+)/([A-Za-z0-9 ,]+)$`)

// TestPlayersGuideSheets runs every example sheet of docs/players.md through the orders
// parser: "sheet" blocks must parse; "sheet COURSE/SEED/ROBOTS" blocks must also be
// valid for their robot in turn 1 of a game on that course with that seed and those
// robots (as the judge sets one up); "sheet-error" blocks must be refused.
func TestPlayersGuideSheets(t *testing.T) {
	const path = "../../docs/players.md"
	n := 0
	for _, b := range fencedBlocks(t, path) {
		kind, spec, _ := strings.Cut(b.info, " ")
		if kind != "sheet" && kind != "sheet-error" {
			continue
		}
		n++
		where := path + ":" + strconv.Itoa(b.line)
		sh, err := orders.Parse([]byte(b.text))
		if kind == "sheet-error" {
			if err == nil && spec == "" {
				t.Errorf("%s: the example of a mistake parses", where)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: the example sheet does not parse: %v", where, err)
			continue
		}
		if spec == "" {
			continue
		}
		m := stateSpec.FindStringSubmatch(spec)
		if m == nil {
			t.Fatalf("%s: %q is not COURSE/SEED/ROBOT,ROBOT", where, spec)
		}
		c, err := adjudicator.LoadCourse(m[1])
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		seed, _ := strconv.ParseUint(m[2], 10, 64)
		setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), seed, adjudicator.DealtOptions(adjudicator.DeckBoth))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := adjudicator.NewGame(setup, strings.Split(m[3], ","))
		if err != nil {
			t.Fatal(err)
		}
		if rep := orders.Validate(setup, st, sh.Robot, sh); !rep.OK() {
			t.Errorf("%s: the example sheet is not valid in that game: %v", where, rep)
		}
	}
	if n < 5 {
		t.Errorf("%s has %d example sheets; the guide's examples are gone?", path, n)
	}
}
