package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// RoboRally behind the seam (roborally.Kind: game.Mailer, game.Illustrator) mails
// players what its players by mail have always been mailed: every welcome and report
// — text, HTML, subject, threading, every inline picture's Content-ID and bytes (the
// stills, the GIF, the reader's robot ringed) — the secrets aside, the reminders, the
// missed-orders mails and the game-over mail are the transcript's (recorded when the
// judge's own RoboRally path mailed the same, byte for byte); a robot misses its orders
// (the deadline), a turn is played again (ROLLBACK, PROCESS: its reports are new mails,
// "resolved again"), a robot goes to a new player (REPLACE), the players are taken out
// (KICK) to the game's end (the game-over mail), a player has switched pictures off and
// another's deadlines are in Berlin time, an observer and the game master's copies;
// postal and 2023, with and without a mailing list, and postal with seed 001's
// Standard Option Package and Scavenger Hunt.
func TestRoboRallySeamMailsTheSameReports(t *testing.T) {
	for _, tc := range []struct {
		name string
		own  bool
		kv   map[string]string
		list string
	}{
		{"postal", false, map[string]string{"course": "sprint"}, ""},
		{"2023", true, map[string]string{"course": "docking-run", "rules": "2023"}, ""},
		{"postal list", false, map[string]string{"course": "sprint"}, "list@example.test"},
		{"2023 list", true, map[string]string{"course": "docking-run", "rules": "2023"}, "list@example.test"},
		{"postal options", false, map[string]string{"course": "sprint", "rules.option_package": "standard", "rules.scavenger_hunt": "1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTranscript(t)
			players := []string{"Twonky", "Zoombot", "Hulk"}
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			seam := newJudgeFixture(t)
			k := roborally.Kind{}
			seam.j.Games = append(game.Catalog{k}, seam.j.Games...)
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := cfg.Encode()
			seam.createGame(GameSpec{Tag: "spring", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test",
				Deadline: dl, List: tc.list}, players...)
			f := seam
			// an observer, the game master's copies, a player without pictures
			if text := f.joinConfirmed("kibitzer@example.test", "watch", "OBSERVE spring\n"); !strings.Contains(text, "You now observe game spring") {
				t.Fatalf("OBSERVE:\n%s", text)
			}
			if _, text := f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nSET gm-copies on\n"); !strings.Contains(text, "gm") {
				t.Fatalf("SET gm-copies:\n%s", text)
			}
			if _, text := f.send("zoombot@example.test", "[RR spring] p", "secret "+f.secrets["Zoombot"]+"\nPICTURES OFF\n"); !strings.Contains(strings.ToLower(text), "picture") {
				t.Fatalf("PICTURES OFF:\n%s", text)
			}
			if _, text := f.send("twonky@example.test", "[RR spring] tz", "secret "+f.secrets["Twonky"]+"\nTIMEZONE Europe/Berlin\n"); !strings.Contains(text, "Europe/Berlin") {
				t.Fatalf("TIMEZONE:\n%s", text)
			}
			kicked := map[string]bool{}
			for turn := 1; turn <= 6; turn++ {
				g, st := f.state()
				if g.Status != store.GameRunning {
					break
				}
				if turn == 2 { // turn 1 is undone and, its orders kept, played again: new mails
					if _, text := f.send("gm@example.test", "[RR spring] rollback", "secret "+f.secrets[""]+"\nROLLBACK\n"); !strings.Contains(text, "Turn 1 is rolled back") {
						t.Fatalf("ROLLBACK:\n%s", text)
					}
					// a kept move is played again only at the deadline or a PROCESS
					// (gmcommands.go: in a game played in turn it is the move the rollback
					// was for)
					if _, text := f.send("gm@example.test", "[RR spring] process", "secret "+f.secrets[""]+"\nPROCESS\n"); !strings.Contains(text, "Turn 1 is resolved") {
						t.Fatalf("PROCESS:\n%s", text)
					}
					if g, _ := f.state(); g.CurrentTurn != 2 {
						t.Fatalf("after ROLLBACK the game is at turn %d, want 2", g.CurrentTurn)
					}
				}
				if turn == 3 { // Hulk's robot goes to a new player, who sends nothing this turn
					if _, text := f.send("gm@example.test", "[RR spring] replace", "secret "+f.secrets[""]+"\nREPLACE Hulk hulk2@example.test\n"); !strings.Contains(text, "hulk2@example.test") {
						t.Fatalf("REPLACE:\n%s", text)
					}
				}
				kick := map[int][]string{4: {"Hulk"}, 5: {"Zoombot", "Twonky"}}[turn]
				for _, who := range kick { // the robot leaves the race; the last two: the game is over
					kicked[who] = true
					if _, text := f.send("gm@example.test", "[RR spring] kick", "secret "+f.secrets[""]+"\nKICK "+who+"\n"); !strings.Contains(text, who+" was removed") {
						t.Fatalf("KICK:\n%s", text)
					}
				}
				for _, r := range st.Robots {
					if !roborally.NeedsProgram(r) || r.Name == "Hulk" && (turn == 2 || turn == 3) || kicked[r.Name] {
						continue
					}
					extra := ""
					if turn == 1 && r.Name == "Twonky" {
						extra = "if damage > 2 power down\n"
						if tc.own {
							extra = "if damage > 2 shut down\n"
						}
					}
					body := f.sheet(r.Name, extra)
					if tc.own { // the 2023 rules: cards by kind
						prog := roborally.RandomProgram(f.j.mustSetup(t, "spring"), st, st.Robot(r.Name), 5, turn)
						body = fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", r.Name, st.Turn, f.secrets[r.Name], roborally.OwnProgramText(prog), extra)
					}
					sheet := "game spring\n" + body
					if _, text := f.send(strings.ToLower(r.Name)+"@example.test", "[RR spring] orders", sheet); !strings.Contains(text, "accepted") || strings.Contains(text, "NOT accepted") {
						t.Fatalf("turn %d, %s's sheet:\n%s\n%s", turn, r.Name, sheet, text)
					}
				}
				if turn == 2 || turn == 3 || turn == 5 { // Hulk's program is missing: the deadline plays it
					f.now = f.now.Add(23 * time.Hour) // a reminder first
					if _, err := f.j.Tick(context.Background()); err != nil {
						t.Fatal(err)
					}
					f.now = f.now.Add(2 * time.Hour)
					if _, err := f.j.Tick(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
			}
			if g, _ := f.state(); g.CurrentTurn < 5 || g.Status != store.GameOver {
				t.Fatalf("%d turns played, the game %s", g.CurrentTurn-1, g.Status)
			}
			if _, err := f.j.Tick(context.Background()); err != nil { // the game-over mail
				t.Fatal(err)
			}
			mails := gameMails(t, f)
			// the secrets (each judge makes its own): a new player's too
			unsecret := func(s string) string {
				for who, sec := range f.secrets {
					if sec != "" {
						s = strings.ReplaceAll(s, sec, "SECRET-OF-"+who)
					}
				}
				return secretShape.ReplaceAllString(s, "A-SECRET")
			}
			pictures, again := 0, 0
			for _, id := range slices.Sorted(mapsKeys(mails)) {
				m := mails[id]
				pictures += len(m.inline)
				if strings.Contains(m.subject, "(resolved again)") {
					again++
				}
				var b strings.Builder
				fmt.Fprintf(&b, "to: %s\nsubject: %s\nin reply to: %s\nreferences: %s\n", m.to, m.subject, m.inReplyTo, m.references)
				fmt.Fprintf(&b, "html: %s\n", digest([]byte(unsecret(m.html))))
				for _, cid := range slices.Sorted(mapsKeys(m.inline)) {
					fmt.Fprintf(&b, "picture %s: %s\n", cid, digest(m.inline[cid]))
				}
				b.WriteString(unsecret(m.text))
				tr.same("mail "+id, b.String())
			}
			if len(mails) < 10 || pictures == 0 || again == 0 {
				t.Fatalf("%d mails, %d pictures, %d reports of a turn played again: the test tests too little", len(mails), pictures, again)
			}
		})
	}
}

// optionVariants are the postal rules with seed 001's Standard Option Package and
// Scavenger Hunt I.
func optionVariants() *adjudicator.Rules {
	r := adjudicator.PostalRules()
	r.OptionPackage, r.ScavengerHunt = "standard", 1
	return &r
}

var secretShape = regexp.MustCompile(`\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b`)

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
		switch m.Kind {
		case "report", "welcome":
			out[m.MessageID] = parseReport(t, m.MessageID, m.Raw)
		case "missed", "final", "reminder":
			x, err := mail.Extract(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			out[m.MessageID] = parsedReport{name: m.MessageID, to: m.To[0], subject: x.Subject, text: x.Text,
				inReplyTo: x.InReplyTo, references: strings.Join(x.References, " ")}
		}
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

// newSeamFixture is a judge with game spring, RoboRally behind the seam (postal, course
// sprint), for Twonky, Zoombot and Hulk, with the settings given.
func newSeamFixture(t *testing.T, spec GameSpec) *fixture {
	t.Helper()
	f := newJudgeFixture(t)
	k := roborally.Kind{}
	f.j.Games = append(game.Catalog{k}, f.j.Games...)
	cfg, err := k.Configure(map[string]string{"course": "sprint"})
	if err != nil {
		t.Fatal(err)
	}
	spec.Tag, spec.Kind, spec.Seed, spec.GMEmail = "spring", "roborally", 42, "gm@example.test"
	spec.Config, _ = cfg.Encode()
	spec.Deadline = store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
	f.createGame(spec, "Twonky", "Zoombot", "Hulk")
	return f
}

// seamState is the engine's state of f's game spring behind the seam.
func (f *fixture) seamState() (store.Game, *adjudicator.State) {
	f.t.Helper()
	var g store.Game
	var st adjudicator.State
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("spring"); err != nil {
			return err
		}
		k, err := f.j.hostedKind(g)
		if err != nil || k == nil {
			return fmt.Errorf("game spring is not hosted: %v", err)
		}
		h, err := f.j.hostedState(tx, g, k)
		if err != nil {
			return err
		}
		b, err := h.pos.Encode()
		if err != nil {
			return err
		}
		var p struct {
			State *adjudicator.State `json:"state"`
		}
		if err := json.Unmarshal(b, &p); err != nil || p.State == nil {
			return fmt.Errorf("the position does not read: %v", err)
		}
		st = *p.State
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return g, &st
}

// seamTurn has every robot of the game behind the seam send a sheet (its hand's first
// cards), which plays the turn.
func (f *fixture) seamTurn() {
	f.t.Helper()
	g, st := f.seamState()
	for _, r := range st.Robots {
		if !roborally.NeedsProgram(r) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "game spring\nrobot %s\nturn %d\nsecret %s\n", r.Name, st.Turn, f.secrets[r.Name])
		for reg := 1; reg <= 5; reg++ {
			if r.IsLocked(reg) {
				b.WriteString("locked\n")
			}
		}
		for _, p := range r.Hand[:5-r.Locked()] {
			fmt.Fprintf(&b, "P%d\n", p)
		}
		f.deliver(rawMail(strings.ToLower(r.Name)+"@example.test", "[RR spring] orders", b.String()))
	}
	if ng, _ := f.seamState(); ng.CurrentTurn != g.CurrentTurn+1 {
		f.t.Fatalf("turn %d was not played: the game is at turn %d", g.CurrentTurn, ng.CurrentTurn)
	}
}

// TestSeamReportPicturesCrash: behind the seam as on the judge's own path
// (TestReportPicturesCrash), a turn's reports are stored with the turn, awaiting their
// pictures, and the sender passes them by; a judge that dies with the pictures drawn
// and not stored (twice) loses nothing: the next drain draws them again, and each report
// goes once, with its pictures (the board, five stills, the GIF), and the observer's
// copy with the shared ones.
func TestSeamReportPicturesCrash(t *testing.T) {
	ctx := context.Background()
	f := newSeamFixture(t, GameSpec{})
	f.setOptions(Options{GMCopies: "on"}) // a copy with the shared pictures
	f.seamTurn()
	if jobs := f.pictureJobs(); len(jobs) != 4 {
		t.Fatalf("%d reports await their pictures, want 4 (three players, the game master's copy)", len(jobs))
	}
	died := 0
	f.j.SetCrashHook(func(point string) bool {
		if point == "pictures-drawn" && died < 2 {
			died++
			return true
		}
		return false
	})
	s := &fakeSender{}
	for range 2 {
		if _, err := f.j.DrainOutbox(ctx, s); err != nil {
			t.Fatal(err)
		}
		for _, raw := range s.sent {
			if strings.Contains(string(raw), "Turn 1 report") {
				t.Fatalf("a report went before its pictures were stored")
			}
		}
		if jobs := f.pictureJobs(); len(jobs) != 4 {
			t.Fatalf("after a crash with the pictures drawn, %d reports await them, want 4", len(jobs))
		}
	}
	s.sent = nil
	for range 2 {
		if _, err := f.j.DrainOutbox(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if jobs := f.pictureJobs(); len(jobs) != 0 {
		t.Fatalf("%d reports still await their pictures", len(jobs))
	}
	seen := map[string]int{}
	for _, raw := range s.sent {
		if r := string(raw); strings.Contains(r, "Turn 1 report") {
			p := parseReport(t, "report", raw)
			seen[p.messageID]++
			if len(p.inline) != 7 {
				t.Errorf("%s went with %d pictures, want 7", p.messageID, len(p.inline))
			}
			for cid := range p.inline {
				if !strings.Contains(p.html, "cid:"+cid) {
					t.Errorf("%s: picture %s is not in the HTML", p.messageID, cid)
				}
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("reports sent: %v, want 4", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
}

// TestSeamReportPicturesOfAVoidTurn: behind the seam as on the judge's own path
// (TestReportPicturesOfAVoidTurn), a turn rolled back before its pictures were drawn
// sends none of its reports; the turn played again sends its own, with pictures. Then
// two turns played before the sender runs: one drain draws both, a turn at a time.
func TestSeamReportPicturesOfAVoidTurn(t *testing.T) {
	ctx := context.Background()
	f := newSeamFixture(t, GameSpec{})
	f.seamTurn()
	for _, verb := range []string{"ROLLBACK", "PROCESS"} {
		if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: verb}); err != nil {
			t.Fatal(err)
		}
	}
	f.seamTurn() // turn 2 too, before the sender runs
	// the void turn's three keep their marks until a drain ends them (CompletePictures:
	// a void mail only loses its mark), as on the judge's own path
	if jobs := f.pictureJobs(); len(jobs) != 9 {
		t.Fatalf("%d reports await their pictures, want 9 (turn 1, void; played again; turn 2)", len(jobs))
	}
	s := &fakeSender{}
	if _, err := f.j.DrainOutbox(ctx, s); err != nil {
		t.Fatal(err)
	}
	n := map[int]int{}
	for _, raw := range s.sent {
		for turn := 1; turn <= 2; turn++ {
			if !strings.Contains(string(raw), fmt.Sprintf("Turn %d report", turn)) {
				continue
			}
			p := parseReport(t, "report", raw)
			if turn == 1 && !strings.Contains(p.subject, "resolved again") {
				t.Errorf("the void turn's report %s was sent", p.messageID)
			}
			if len(p.inline) != 7 {
				t.Errorf("%s went with %d pictures, want 7", p.messageID, len(p.inline))
			}
			n[turn]++
		}
	}
	if n[1] != 3 || n[2] != 3 {
		t.Errorf("reports sent by turn: %v, want 3 of turn 1 played again and 3 of turn 2", n)
	}
	if jobs := f.pictureJobs(); len(jobs) != 0 {
		t.Errorf("%d picture jobs left", len(jobs))
	}
}

// A report whose pictures the judge's own RoboRally path left to draw — a judge
// upgraded right after a turn, its outbox_pictures rows written before the seam — is
// drawn by the game behind the seam that adopted its game (olderJobs): what each job
// kept of its report (the older job's report: game, part, list, deadline) and its
// reader make the same game.Mailing a job of the seam holds, so the game draws the same
// pictures and writes the same HTML.
func TestOlderPictureJobsAreDrawnThroughTheSeam(t *testing.T) {
	f := newSeamFixture(t, GameSpec{})
	f.resolveTurn1()
	rows := f.pictureJobs()
	if len(rows) < 3 {
		t.Fatalf("%d reports await their pictures, want at least 3", len(rows))
	}
	var older []*awaiting
	var want []string
	for _, r := range rows {
		var job pictureJob
		if err := json.Unmarshal(r.Job, &job); err != nil || job.Mailing == nil {
			t.Fatalf("job of outbox %d: %v", r.OutboxID, err)
		}
		m := *job.Mailing
		b, _ := json.Marshal(m)
		want = append(want, string(b))
		// the job as the older path wrote it: its report, the reader's robot
		o := job
		o.Mailing = nil
		part := map[string]string{game.PartPublic: "public", game.PartPrivate: "private"}[m.Part]
		o.Report = &olderReport{Game: m.Game, Part: part, List: m.List, Deadline: m.Deadline}
		if m.Seat >= 0 {
			o.You = []string{"Twonky", "Zoombot", "Hulk"}[m.Seat]
		}
		older = append(older, &awaiting{id: r.OutboxID, job: o})
	}
	g, _ := f.game("spring")
	if err := f.j.olderJobs(context.Background(), g.ID, older); err != nil {
		t.Fatal(err)
	}
	for i, a := range older {
		if a.job.Mailing == nil {
			t.Fatalf("job %d was not given a mailing", i+1)
		}
		got, _ := json.Marshal(*a.job.Mailing)
		if string(got) != want[i] {
			t.Errorf("job %d: the older job reads as\n%s\nwant\n%s", i+1, got, want[i])
		}
	}
}
