package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file (go test -run %s -update to accept):\n--- got\n%s\n--- want\n%s", name, t.Name(), got, want)
	}
}

// aGame is a game's own templates, as a game gives them (Source).
type aGame struct{ Move string }

func gameSource() Source {
	return Source{Name: "a-game", FS: fstest.MapFS{
		"move.txt.tmpl":  {Data: []byte("Your move: {{.Move}}.\n")},
		"move.html.tmpl": {Data: []byte("<p>{{.Move}}</p>")},
	}, Samples: map[string]any{"move.txt.tmpl": aGame{Move: "m"}, "move.html.tmpl": aGame{Move: "m"}}}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRejectedGolden(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := set.Text("rejected.txt.tmpl", Rejected{Summary: "Your sheet for Zoom, turn 2, was not accepted.",
		Errors: []string{"line 6, column 4: P495 is not a card; did you mean P490?"}, Hint: "Send the whole sheet again."})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "rejected.txt.golden", out)
}

// A game's templates are rendered through the judge's set, a game master's overrides
// applied to them as to the judge's own, whether the set was loaded with the game
// (Load) or is given it later (With).
func TestGameTemplates(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "move.txt.tmpl", "Move: {{.Move}}")
	write(t, dir, "rejected.txt.tmpl", "custom: {{.Summary}}")
	loaded, err := Load(dir, gameSource())
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Load(dir)
	if err != nil {
		t.Fatalf("an override of a game's template, the game not given: %v", err)
	}
	if _, err := plain.Text("move.txt.tmpl", aGame{Move: "x"}); err == nil {
		t.Error("a set without the game rendered its template")
	}
	with, err := plain.With(gameSource())
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := plain.With(gameSource()); again != with {
		t.Error("With made the game's set twice")
	}
	if same, _ := loaded.With(gameSource()); same != loaded {
		t.Error("With made a set that holds the game already anew")
	}
	for name, set := range map[string]*Set{"Load": loaded, "With": with} {
		for _, c := range []struct {
			tmpl string
			data any
			want string
		}{
			{"move.txt.tmpl", aGame{Move: "a3"}, "Move: a3"},
			{"move.html.tmpl", aGame{Move: "<a3>"}, "<p>&lt;a3&gt;</p>"},
			{"rejected.txt.tmpl", Rejected{Summary: "no"}, "custom: no"},
		} {
			var out string
			var err error
			if strings.HasSuffix(c.tmpl, ".html.tmpl") {
				out, err = set.HTML(c.tmpl, c.data)
			} else {
				out, err = set.Text(c.tmpl, c.data)
			}
			if err != nil || out != c.want {
				t.Errorf("%s: %s: %q, %v; want %q", name, c.tmpl, out, err, c.want)
			}
		}
	}
}

func TestOverridesCheckedAtLoad(t *testing.T) {
	for _, tc := range []struct {
		file, text, want string
		games            []Source
	}{
		{"notice.txt.tmpl", "Hello {{.Nope}}", "fails on sample data", nil},
		{"notcie.txt.tmpl", "Hello", "overrides no template", []Source{gameSource()}},
		{"move.txt.tmpl", "{{.Nope}}", "fails on sample data", []Source{gameSource()}},
		{"rejected.txt.tmpl", "{{.Broken", "rejected.txt.tmpl", nil},
		{"move.html.tmpl", "{{.Broken", "move.html.tmpl", []Source{gameSource()}},
	} {
		dir := t.TempDir()
		write(t, dir, tc.file, tc.text)
		if _, err := Load(dir, tc.games...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.file, err, tc.want)
		}
	}
	dir := t.TempDir()
	write(t, dir, "rejected.txt.tmpl", "No: {{.Summary}}")
	write(t, dir, "move.txt.tmpl", "{{.Move}}")
	if _, err := Load(dir, gameSource()); err != nil {
		t.Fatalf("good overrides refused: %v", err)
	}
}

// Two games' templates of one name cannot both be rendered by name: refused.
func TestGameTemplateNamesClash(t *testing.T) {
	other := gameSource()
	other.Name = "b-game"
	if _, err := Load("", gameSource(), other); err == nil || !strings.Contains(err.Error(), "move.") {
		t.Errorf("two games' move templates: %v, want an error naming the template", err)
	}
	clash := Source{Name: "c-game", FS: fstest.MapFS{"notice.txt.tmpl": {Data: []byte("x")}}}
	if _, err := Load("", clash); err == nil || !strings.Contains(err.Error(), "notice.txt.tmpl") {
		t.Errorf("a game's notice template: %v, want an error naming it", err)
	}
}

func TestGameMailEscapes(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := set.HTML("game.html.tmpl", GameMail{Title: "<script>x</script>", Text: "a & b"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "<script>") || !strings.Contains(out, "a &amp; b") {
		t.Errorf("values are not escaped:\n%s", out)
	}
	if _, err := set.HTML("game.html.tmpl", GameMail{PictureCID: `x" onerror="alert(1)`}); err == nil {
		t.Error("a Content-ID with quotes was accepted")
	}
}
