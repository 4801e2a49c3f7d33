package judge

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// CREATE takes seed 001's option variants by name (variants=) and any rules setting
// (rules.KEY=); the reply, LIST and the welcome show every rules setting, the changed
// ones marked; a Deluxe player's welcome shows its three cards and how to keep one.
func TestCreateVariantsShownEverywhere(t *testing.T) {
	st, err := store.OpenWith(filepath.Join(t.TempDir(), "j.db"), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	j.Now = func() time.Time { return now }
	j.NewSeed = func() int64 { return now.Unix() }
	ctx := context.Background()

	for _, bad := range []string{"variants=platinum-package", "variants=standard-package,deluxe-package", "variants=deluxe rules.option_package=standard", "rules.scavenger_hunt=4"} {
		if _, err := j.RunCommand(ctx, "", Command{Verb: "CREATE", Args: append([]string{"bad", "course=sprint"}, strings.Fields(bad)...)}); err == nil {
			t.Errorf("CREATE %s accepted", bad)
		}
	}
	reply, err := j.RunCommand(ctx, "", Command{Verb: "CREATE", Args: []string{"hunt", "course=sprint",
		"variants=deluxe-package,scavenger-hunt-2,bio-bots", "rules.pass_touches=true", "rules.elements=express,belts,pushers,gears,crushers,stompers"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"* option_package=deluxe", "* scavenger_hunt=2", "* bio_bots=true", "* pass_touches=true",
		"* elements=express,belts,pushers,gears,crushers,stompers", "  turbo_wrenches=false", "  archive_choice=false", "  landing=:", "  max_options=3"} {
		if !strings.Contains(reply, want) {
			t.Errorf("CREATE's reply lacks %q:\n%s", want, reply)
		}
	}
	var g store.Game
	if err := st.View(ctx, func(tx *store.Tx) error {
		var err error
		g, err = tx.GameByTag("hunt")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	k, err := j.hostedKind(g)
	if err != nil {
		t.Fatal(err)
	}
	line := hostedRulesLine(g, k)
	for _, want := range []string{"rules: postal with", "option_package=deluxe", "scavenger_hunt=2", "bio_bots=true", "pass_touches=true"} {
		if !strings.Contains(line, want) {
			t.Errorf("LIST's line lacks %q: %s", want, line)
		}
	}
	if strings.Contains(line, "turbo_wrenches") {
		t.Errorf("LIST names an unchanged setting: %s", line)
	}

	// The welcome, through CreateGame with the players seated.
	spec := GameSpec{Tag: "deluxe", Settings: map[string]string{"course": "sprint", "variants": "deluxe-package,scavenger-hunt-1,bio-bots"}, Seed: 42, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Twonky", Email: "twonky@example.test"}, {Robot: "Hulk", Email: "hulk@example.test"}}}
	if _, err := j.CreateGame(ctx, spec); err != nil {
		t.Fatal(err)
	}
	var text string
	_ = st.View(ctx, func(tx *store.Tx) error {
		ms, _ := tx.DuePending(now.Add(time.Hour), 100)
		for _, m := range ms {
			if m.Kind == "welcome" && m.To[0] == "twonky@example.test" {
				x, _ := mail.Extract(m.Raw)
				text = x.Text
			}
		}
		return nil
	})
	for _, want := range []string{"THE RULES (postal;", "* option_package=deluxe", "* bio_bots=true", "* scavenger_hunt=1",
		"YOUR DELUXE OPTION PACKAGE", "keep NAME", "(on your Bio Option)", "SCAVENGER HUNT PILES", "flag 1: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the welcome lacks %q:\n%s", want, text)
		}
	}
}
