package judge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// RoboRally behind the seam (roborally.Kind: game.Mailer, game.Illustrator) mails
// players the same mails as the judge's own RoboRally path: two judges play the same
// game (course, seed, players, sheets), one on each path, and every welcome and report
// — text, HTML, subject, threading, every inline picture's Content-ID and bytes (the
// stills, the GIF, the reader's robot ringed) — is the same, the secrets aside; a
// robot misses its orders (the deadline), one player is taken out (KICK), postal and
// 2023, with and without a mailing list.
func TestRoboRallySeamMailsTheSameReports(t *testing.T) {
	for _, tc := range []struct {
		name, course string
		rules        *adjudicator.Rules
		kv           map[string]string
		list         string
	}{
		{"postal", "sprint", nil, map[string]string{"course": "sprint"}, ""},
		{"2023", "docking-run", ptr(adjudicator.Rules2023()), map[string]string{"course": "docking-run", "rules": "2023"}, ""},
		{"postal list", "sprint", nil, map[string]string{"course": "sprint"}, "list@example.test"},
		{"2023 list", "docking-run", ptr(adjudicator.Rules2023()), map[string]string{"course": "docking-run", "rules": "2023"}, "list@example.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			players := []string{"Twonky", "Zoombot", "Hulk"}
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			old := newJudgeFixture(t)
			old.createGame(GameSpec{Tag: "spring", Course: tc.course, Rules: tc.rules, Seed: 42, GMEmail: "gm@example.test",
				Deadline: dl, List: tc.list}, players...)
			seam := newJudgeFixture(t)
			k := roborally.Kind{Course: seam.j.Course}
			seam.j.Games = append(game.Catalog{k}, seam.j.Games...)
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := cfg.Encode()
			seam.createGame(GameSpec{Tag: "spring", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test",
				Deadline: dl, List: tc.list}, players...)
			for turn := 1; turn <= 6; turn++ {
				g, st := old.state()
				if g.Status != store.GameRunning {
					break
				}
				if turn == 4 { // Hulk's player is taken out: the robot leaves the race
					for _, f := range []*fixture{old, seam} {
						if _, text := f.send("gm@example.test", "[RR spring] kick", "secret "+f.secrets[""]+"\nKICK Hulk\n"); !strings.Contains(text, "Hulk was removed") {
							t.Fatalf("KICK:\n%s", text)
						}
					}
				}
				for _, r := range st.Robots {
					if !roborally.NeedsProgram(r) || r.Name == "Hulk" && (turn == 2 || turn >= 4) {
						continue
					}
					extra := ""
					if turn == 1 && r.Name == "Twonky" {
						extra = "if damage > 2 power down\n"
						if tc.rules != nil {
							extra = "if damage > 2 shut down\n"
						}
					}
					body := old.sheet(r.Name, extra)
					if tc.rules != nil { // the 2023 rules: cards by kind
						prog := roborally.RandomProgram(old.j.mustSetup(t, "spring"), st, st.Robot(r.Name), 5, turn)
						body = fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", r.Name, st.Turn, old.secrets[r.Name], roborally.OwnProgramText(prog), extra)
					}
					for _, f := range []*fixture{old, seam} {
						sheet := "game spring\n" + strings.Replace(body, "secret "+old.secrets[r.Name], "secret "+f.secrets[r.Name], 1)
						if _, text := f.send(strings.ToLower(r.Name)+"@example.test", "[RR spring] orders", sheet); !strings.Contains(text, "accepted") || strings.Contains(text, "NOT accepted") {
							t.Fatalf("turn %d, %s's sheet:\n%s\n%s", turn, r.Name, sheet, text)
						}
					}
				}
				if turn == 2 { // Hulk's program is missing: the deadline plays it
					for _, f := range []*fixture{old, seam} {
						f.now = f.now.Add(25 * time.Hour)
						if _, err := f.j.Tick(context.Background()); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if g, _ := old.state(); g.CurrentTurn < 4 {
				t.Fatalf("only %d turns played", g.CurrentTurn-1)
			}
			oldMails, seamMails := gameMails(t, old), gameMails(t, seam)
			unsecret := func(f *fixture, s string) string {
				for who, sec := range f.secrets {
					if sec != "" {
						s = strings.ReplaceAll(s, sec, "SECRET-OF-"+who)
					}
				}
				return s
			}
			compared, pictures := 0, 0
			for _, id := range slices.Sorted(mapsKeys(oldMails)) {
				o := oldMails[id]
				s, ok := seamMails[id]
				if !ok {
					t.Errorf("%s (%s to %s) is not mailed through the seam", id, o.subject, o.to)
					continue
				}
				compared++
				pictures += len(o.inline)
				if o.subject != s.subject || o.to != s.to || o.inReplyTo != s.inReplyTo || o.references != s.references {
					t.Errorf("%s: headers differ:\nold:  %q to %s, in reply to %s, refs %s\nseam: %q to %s, in reply to %s, refs %s",
						id, o.subject, o.to, o.inReplyTo, o.references, s.subject, s.to, s.inReplyTo, s.references)
				}
				if a, b := unsecret(old, o.text), unsecret(seam, s.text); a != b {
					t.Errorf("%s (%s): the text differs:\n%s", id, o.subject, lineDiff(a, b))
				}
				if a, b := unsecret(old, o.html), unsecret(seam, s.html); a != b {
					t.Errorf("%s (%s): the HTML differs:\n%s", id, o.subject, lineDiff(a, b))
				}
				if a, b := slices.Sorted(mapsKeys(o.inline)), slices.Sorted(mapsKeys(s.inline)); !slices.Equal(a, b) {
					t.Errorf("%s (%s): the pictures differ:\nold:  %v\nseam: %v", id, o.subject, a, b)
				}
				for cid, data := range o.inline {
					if sd, ok := s.inline[cid]; ok && string(sd) != string(data) {
						t.Errorf("%s (%s): picture %s differs: %d bytes, %d through the seam", id, o.subject, cid, len(data), len(sd))
					}
				}
			}
			for id, s := range seamMails {
				if _, ok := oldMails[id]; !ok {
					t.Errorf("%s (%s to %s) is mailed through the seam only", id, s.subject, s.to)
				}
			}
			if compared < 10 || pictures == 0 {
				t.Fatalf("%d mails compared, %d pictures: the test tests nothing", compared, pictures)
			}
			t.Logf("%d mails and %d pictures the same", compared, pictures)
		})
	}
}

// gameMails are the welcomes and reports f's judge mailed, by Message-ID, every
// report's pictures drawn.
func gameMails(t *testing.T, f *fixture) map[string]parsedReport {
	t.Helper()
	for {
		n, err := f.j.completePictures(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	out := map[string]parsedReport{}
	for _, m := range f.outbox() {
		if m.Kind != "report" && m.Kind != "welcome" {
			continue
		}
		p := parseReport(t, m.MessageID, m.Raw)
		out[m.MessageID] = p
	}
	return out
}

func mapsKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// lineDiff shows the first lines where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(al), len(bl)) && len(out) < 12; i++ {
		x, y := "", ""
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d\n  old:  %q\n  seam: %q", i+1, x, y))
		}
	}
	return strings.Join(out, "\n")
}
