package orders

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var senderRE = regexp.MustCompile(`(?m)^\s*#\s*sender:\s*(.+?)\s*$`)

// TestGoldenSheets reads every sheet in testdata/sheets, parses it, validates it
// against testGame (as the robot it names, or as the "# sender: NAME" comment says,
// else Fred) and forecasts it, and compares everything with NAME.golden.
func TestGoldenSheets(t *testing.T) {
	files, err := filepath.Glob("testdata/sheets/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		ext := filepath.Ext(f)
		if ext != ".txt" && ext != ".yaml" {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := checkReport(t, in)
			golden := strings.TrimSuffix(f, ext) + ext + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", f, golden, got, want)
			}
		})
	}
	if n < 40 {
		t.Errorf("only %d golden sheets; want at least 40", n)
	}
}

// checkReport is what `rallyjudge check SHEET --state` would say, as text.
func checkReport(t *testing.T, in []byte) string {
	var b strings.Builder
	s, err := Parse(in)
	b.WriteString("== parse\n")
	if err != nil {
		b.WriteString(problemsText(err))
		return b.String()
	}
	b.Write(s.JSON())
	setup, st := testGame(t)
	sender := "Fred"
	if m := senderRE.FindSubmatch(in); m != nil {
		sender = string(m[1])
	} else if st.Robot(s.Robot) >= 0 {
		sender = s.Robot
	}
	rep := Validate(setup, st, sender, s)
	b.WriteString("== validate as " + sender + "\n")
	b.WriteString(rep.String())
	if rep.OK() && s.HasProgram() {
		f, err := Forecast(setup, st, sender, s)
		b.WriteString("== forecast\n")
		if err != nil {
			b.WriteString(err.Error() + "\n")
		} else {
			b.WriteString(f.String())
		}
	}
	return b.String()
}

func problemsText(err error) string {
	se, ok := err.(*SyntaxError)
	if !ok {
		return err.Error() + "\n"
	}
	var b strings.Builder
	for _, p := range se.Problems {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	return b.String()
}
