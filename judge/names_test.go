package judge

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
)

// TestEveryNameRefusesControlAndBidi: every name that reaches players' mail and the
// operator's terminal is checked, not only a game's name (issue 14 item 9): a new game's
// robot names (CreateGame's callers: the demo, the Go API), an imported game's name and
// the robot names an archive brings (an archive is outside input). JOIN's robot names
// are plain ASCII (robotName), a course is named from the shipped ones only, and
// addresses are plain ASCII (mail.ValidAddress).
func TestEveryNameRefusesControlAndBidi(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for i, robot := range []string{"Ali\u202Ece", "Esc\x1b[2J", "Zero\u200Bwidth", "C1\u0085"} {
		_, err := f.j.CreateGame(ctx, GameSpec{Tag: fmt.Sprintf("names%d", i), Settings: map[string]string{"course": "sprint"}, Seed: 1,
			Players: []PlayerSpec{{Robot: robot, Email: "alice@example.test"}}})
		if err == nil || !strings.Contains(err.Error(), "not allowed in names") || strings.Contains(err.Error(), robot) {
			t.Errorf("CreateGame with the robot %q: %v", robot, err)
		}
	}
	f.playTurns(1)
	a := f.archiveOf("spring")
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "fork-name", Name: "x\u202Ey", From: 1}); err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("ImportGame with a bidi override in the game's name: %v", err)
	}
	b := f.archiveOf("spring")
	b.Robots[1] = "Hu\u202Elk"
	if _, err := f.j.ImportGame(ctx, &b, ImportSpec{Tag: "fork-robot", From: 1}); err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("ImportGame of an archive with a bidi override in a robot's name: %v", err)
	}
	// the check refuses no plain name
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "fork-ok", Name: "Spring, what if", From: 1}); err != nil {
		t.Errorf("ImportGame with plain names: %v", err)
	}

	// An archive file is refused on reading (`rallyjudge replay`, `import`, the replay
	// page) whatever name carries the character: the game's free-text name, a robot's,
	// a board's, an option card's.
	var buf bytes.Buffer
	if err := rja.Write(&buf, f.archiveOf("spring")); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if _, err := rja.Read(strings.NewReader(good)); err != nil {
		t.Fatalf("the plain archive: %v", err)
	}
	for _, bad := range []string{"\u202e", "\u2067", "\u200f", "\u061c", "\u200b", "\u0085", `\u001b`, "\u00ad"} {
		for _, field := range []struct{ name, old, new string }{
			{"robot", `"Hulk"`, `"Hu` + bad + `lk"`},
			{"game name", `"game":"spring"`, `"game":"spring","name":"Spring ` + bad + ` open"`},
			{"board", `"name":"` + firstBoard(t, good) + `"`, `"name":"x` + bad + `"`},
		} {
			text := strings.Replace(good, field.old, field.new, -1)
			if text == good {
				t.Fatalf("%s: %s not found in the archive", field.name, field.old)
			}
			_, err := rja.Read(strings.NewReader(text))
			if err == nil || !strings.Contains(err.Error(), "not allowed in names") {
				t.Errorf("an archive with %s in a %s's name: %v", bad, field.name, err)
			}
		}
	}

	// The engine refuses such a robot name itself, for every caller (scenario files,
	// the Go API).
	course, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	setup, err := adjudicator.NewSetup(course, adjudicator.PostalRules(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := adjudicator.NewGame(setup, []string{"Alice", "Bo\u202Eb"}); err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("NewGame with a bidi override in a robot's name: %v", err)
	}

	// The judge's own name (config judge_name) is the display name of everything it sends.
	if _, err := ParseConfig("t.yaml", []byte("database: x\njudge_address: j@example.test\njudge_name: \"Judge \\u202Eevil\"\n"+
		"imap: {address: 127.0.0.1:1, username: u, password_env: X}\nsmtp: {address: 127.0.0.1:2}\n")); err == nil || !strings.Contains(err.Error(), "judge_name") {
		t.Errorf("a config with a bidi override in judge_name: %v", err)
	}
}

// firstBoard is the name of the first board an archive's course inlines.
func firstBoard(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, `"boards":[{"name":"`)
	if i < 0 {
		t.Fatal("no boards in the archive")
	}
	rest := text[i+len(`"boards":[{"name":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}
