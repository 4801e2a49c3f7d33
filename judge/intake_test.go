package judge

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

// The corpus: raw replies as each client family writes them (mail/testdata/clients). Every
// one answers the welcome of game spring for the robot Zoombot, whose secret is
// tango-42-kilo; the quoted welcome carries the placeholder "secret YOUR-SECRET", which
// must never be read.
const corpusSecret = "tango-42-kilo"

var corpusFacts = map[string]struct {
	program string // the priorities read, "" for none
	cmds    string // a command mail's verbs
	errs    []int  // lines of the problems, in order
}{
	"gmail_web":                   {program: "490 670 10 840 530"},
	"gmail_web_unmarked":          {program: "490 670 10 840 530"},
	"gmail_android":               {program: "490 670 10 840 530"},
	"gmail_ios":                   {program: "490 670 10 840 530"},
	"gmail_errors":                {program: "495 670 10 840 530", errs: []int{13}},
	"outlook_desktop_plain":       {program: "490 670 10 840 530"},
	"outlook_desktop_html_only":   {program: "490 670 10 840 530"},
	"outlook_desktop_alternative": {program: "490 670 10 840 530"},
	"outlook_web":                 {program: "490 670 10 840 530"},
	"outlook_ios":                 {program: "490 670 10 840 530"},
	"outlook_android":             {program: "490 670 10 840 530"},
	"outlook365_german":           {program: "490 670 10 840 530"},
	"apple_mail":                  {program: "490 670 10 840 530"},
	"iphone":                      {program: "490 670 10 840 530"},
	"iphone_flowed_delsp":         {program: "490 670 10 840 530"},
	"thunderbird_flowed":          {program: "10 670 840 530 730"},
	"thunderbird_bottom_post":     {program: "490 670 10 840 530"},
	"k9":                          {program: "490 670 10 840 530"},
	"fairemail":                   {program: "490 670 10 840 530"},
	"roundcube":                   {program: "490 670 10 840 530"},
	"mutt":                        {program: "490 670 10 840 530"},
	"yaml_signature":              {program: "490 670 10 840 530"},
	"join_signoff":                {cmds: "JOIN"},
}

func readCorpus(t *testing.T, path string) *Reading {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.Extract(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return Read(m)
}

// TestClientCorpus reads every mail of the corpus as the judge does and checks what it
// read: the player's sheet, never the quoted welcome's, with problems on the lines the
// player sees. The golden files are what `rallyjudge check --mail` prints.
func TestClientCorpus(t *testing.T) {
	files, err := filepath.Glob("../mail/testdata/clients/*.eml")
	if err != nil || len(files) < 20 {
		t.Fatalf("want the client corpus (20 mails or more), got %d (%v)", len(files), err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		t.Run(name, func(t *testing.T) {
			want, ok := corpusFacts[name]
			if !ok {
				t.Fatalf("no facts for %s: add them to corpusFacts", name)
			}
			r := readCorpus(t, path)
			var cmds []string
			for _, c := range r.Commands() {
				cmds = append(cmds, c.Verb)
			}
			if got := strings.Join(cmds, " "); got != want.cmds {
				t.Errorf("commands %q, want %q", got, want.cmds)
			}
			if want.program != "" {
				if r.Sheet == nil {
					t.Fatal("no sheet read")
				}
				var ps []string
				for _, c := range r.Sheet.Program {
					ps = append(ps, fmt.Sprint(c.Priority))
				}
				if got := strings.Join(ps, " "); got != want.program {
					t.Errorf("program %q, want %q", got, want.program)
				}
				if r.Sheet.Secret != corpusSecret || r.Sheet.Game != "spring" || r.Sheet.Robot != "Zoombot" {
					t.Errorf("read game %q robot %q secret %q: want spring, Zoombot and the player's secret", r.Sheet.Game, r.Sheet.Robot, r.Sheet.Secret)
				}
				var lines []int
				_, n := problemsOf(r.SheetText, r.SheetErr, nil)
				if r.SheetErr != nil {
					for _, p := range r.SheetErr.(*orders.SyntaxError).Problems {
						lines = append(lines, p.At.Line)
					}
				}
				if fmt.Sprint(lines) != fmt.Sprint(want.errs) && !(len(lines) == 0 && len(want.errs) == 0) || n != len(want.errs) {
					t.Errorf("problems on lines %v, want %v: %v", lines, want.errs, r.SheetErr)
				}
				if strings.Contains(r.SheetText, "YOUR-SECRET") {
					t.Errorf("the quoted welcome is in the text read:\n%s", r.SheetText)
				}
			}
			var b bytes.Buffer
			r.Describe(&b)
			if strings.Contains(b.String(), corpusSecret) {
				t.Errorf("the description shows the secret:\n%s", b.String())
			}
			golden := filepath.Join("testdata", "intake", name+".golden")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./judge -run TestClientCorpus -update)", err)
			}
			if b.String() != string(g) {
				t.Errorf("differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), g)
			}
		})
	}
}
