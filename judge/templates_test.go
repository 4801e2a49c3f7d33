package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/templates"
)

// The judge loads its templates with the hosted games' own (LoadTemplates), so a game
// master's override of a game's template is checked at start as one of the judge's:
// a misspelt name or a misspelt field stops the judge, naming the file; a good one is
// what the game's mails are rendered with.
func TestGameTemplatesOverriddenAndChecked(t *testing.T) {
	for _, tc := range []struct{ file, text, want string }{
		{"reprot.txt.tmpl", "Hello", "overrides no template"},
		{"report.txt.tmpl", "Hello {{.Nope}}", "fails on sample data"},
		{"ack.txt.tmpl", "{{range .Program}}{{.Priority}}{{end}}", "fails on sample data"},
		{"welcome.html.tmpl", "{{.Broken", "welcome.html.tmpl"},
		{"notice.txt.tmpl", "{{.Nope}}", "fails on sample data"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadTemplates(dir, games.Hosted()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.file, err, tc.want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ack.txt.tmpl"), []byte("Orders of {{.Robot}} received.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadTemplates(dir, games.Hosted())
	if err != nil {
		t.Fatalf("a good override refused: %v", err)
	}
	j := &Judge{Templates: set, Games: games.Hosted()}
	k, err := j.Games.Lookup("roborally")
	if err != nil {
		t.Fatal(err)
	}
	out, err := j.withGame(k).Text("ack.txt.tmpl", struct{ Robot string }{"Zoombot"})
	if err != nil || out != "Orders of Zoombot received.\n" {
		t.Errorf("the game's template through the judge's set: %q, %v; want the override", out, err)
	}
	if _, err := set.Text("rejected.txt.tmpl", templates.Rejected{Summary: "s"}); err != nil {
		t.Errorf("the judge's own template: %v", err)
	}
}
