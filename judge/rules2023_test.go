package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/store"
)

// autopilotBot is the demo's bot: the autopilot's program and standing orders.
func autopilotBot(setup *adjudicator.Setup, st *adjudicator.State, robot int) ([adjudicator.Registers]int, []string) {
	p := autopilot.Choose(setup, st, robot)
	return p.Program, p.Orders
}

// A whole 2023 game by mail: four bots mail 2023 sheets (cards by kind) over SMTP to
// the embedded servers, the judge reads them by IMAP, checks them against each robot's
// hand and Haywire cards, resolves the rounds and mails the reports, until a robot
// wins. Every turn stored replays from its record; the reports show the player mat.
func TestGame2023ByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 2023 game over local mail servers")
	}
	dir := t.TempDir()
	db := filepath.Join(t.TempDir(), "demo.db")
	var out bytes.Buffer
	res, err := RunDemo(context.Background(), DemoOptions{Rules: "2023", Seed: 5, Turns: 40, DB: db, SaveMail: dir, Out: &out, Bot: autopilotBot})
	if err != nil {
		names, _ := filepath.Glob(filepath.Join(dir, "*-reject-*.eml"))
		for _, n := range names {
			raw, _ := os.ReadFile(n)
			t.Logf("%s:\n%s", n, raw)
		}
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Winner == "" {
		t.Fatalf("no winner after %d rounds:\n%s", res.Turns, out.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var g store.Game
	var turns []store.Turn
	err = st.View(context.Background(), func(tx *store.Tx) error {
		if g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		for n := 1; n <= res.Turns; n++ {
			tn, err := tx.Turn(g.ID, n)
			if err != nil {
				return err
			}
			turns = append(turns, tn)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := gameRules(g); !r.Own() || r.Name != "2023" {
		t.Fatalf("the demo game plays the %q rules", r.Name)
	}
	// Every turn replays bit for bit from its record (orders.Played), the way archives
	// and `rallyjudge check` replay it.
	j, err := New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := j.setupFor(g)
	if err != nil {
		t.Fatal(err)
	}
	missed := 0
	for _, tn := range turns {
		var before adjudicator.State
		mustJSON(t, tn.Before, &before)
		var played []Played
		mustJSON(t, tn.Orders, &played)
		ords := make([]adjudicator.Orders, len(played))
		for i, p := range played {
			ords[i] = p.Orders()
			if p.Missed != "" {
				missed++
			}
		}
		next, _, err := adjudicator.Resolve(setup, &before, ords)
		if err != nil {
			t.Fatalf("turn %d does not replay: %v", tn.Number, err)
		}
		if got, _ := json.Marshal(next); string(got) != string(tn.After) {
			t.Errorf("turn %d replays to another state", tn.Number)
		}
	}
	if missed > 0 {
		t.Errorf("%d programs were missed: every bot's sheet should have been valid", missed)
	}
	// The reports: a player mat, the hand by kind, the 2023 events told.
	names, _ := filepath.Glob(filepath.Join(dir, "*-report-*.eml"))
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no reports saved")
	}
	all := ""
	for _, n := range names {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all += string(raw)
	}
	for _, want := range []string{"YOUR PLAYER MAT", "energy", "draw pile", "discard pile", "priority token"} {
		if !strings.Contains(all, want) {
			t.Errorf("no report says %q", want)
		}
	}
	if strings.Contains(all, " P1 ") || strings.Contains(all, "\n  P2 ") {
		t.Errorf("a 2023 report names a card by priority")
	}
}
