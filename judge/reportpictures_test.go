package judge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// pictureJobs is the outbox mails awaiting their pictures.
func (f *fixture) pictureJobs() []store.PictureJob {
	f.t.Helper()
	var jobs []store.PictureJob
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		jobs, err = tx.PictureJobs(1000)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return jobs
}

// resolveTurn1 has every robot send a sheet for turn 1, which resolves it.
func (f *fixture) resolveTurn1() {
	f.t.Helper()
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	if g, _ := f.state(); g.CurrentTurn != 2 {
		f.t.Fatalf("turn 1 was not resolved: the game is at turn %d", g.CurrentTurn)
	}
}

// TestReportPicturesAfterTheCommit (issue 24 item 3): a turn commits with its reports
// awaiting their pictures, which the sender passes by; once drawn, each report is the
// mail the judge composed when it drew them inside the transaction: the same text,
// the same HTML, the same pictures by Content-ID (compressed for speed).
func TestReportPicturesAfterTheCommit(t *testing.T) {
	ctx := context.Background()
	reports := func(inTx bool) ([]parsedReport, *fixture) {
		f := newFixture(t)
		f.j.picturesInTx = inTx
		f.setOptions(Options{GMCopies: "on"}) // a copy with the shared pictures
		f.resolveTurn1()
		if inTx {
			if jobs := f.pictureJobs(); len(jobs) != 0 {
				t.Fatalf("pictures drawn in the transaction: %d reports await pictures", len(jobs))
			}
		} else {
			// three players and the game master's copy
			if jobs := f.pictureJobs(); len(jobs) != 4 {
				t.Fatalf("%d reports await their pictures, want 4", len(jobs))
			}
			var due []store.OutboxMail
			if err := f.j.Store.View(ctx, func(tx *store.Tx) error {
				var err error
				due, err = tx.DueToSend(f.now.Add(1000*time.Hour), 1000)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			for _, m := range due {
				if m.Kind == "report" {
					t.Errorf("%s is due to send before its pictures are drawn", m.MessageID)
				}
			}
		}
		var out []parsedReport
		for _, m := range f.outbox() { // draws the pictures (judge_test.go)
			if m.Kind == "report" {
				out = append(out, parseReport(t, m.MessageID, m.Raw))
			}
		}
		if jobs := f.pictureJobs(); len(jobs) != 0 {
			t.Fatalf("%d reports still await their pictures after they were drawn", len(jobs))
		}
		return out, f
	}
	before, _ := reports(true)
	after, f := reports(false)
	if len(after) != 4 || len(before) != len(after) {
		t.Fatalf("%d reports with pictures after the commit, %d inside it; want 4 each", len(after), len(before))
	}
	for i, a := range after {
		b := before[i]
		if a.messageID != b.messageID || a.to != b.to || a.subject != b.subject || a.inReplyTo != b.inReplyTo || a.references != b.references {
			t.Errorf("%s: headers differ: %+v against %+v", a.name, a, b)
		}
		if a.text != b.text {
			t.Errorf("%s: the text differs from the report drawn in the transaction", a.name)
		}
		if a.html != b.html {
			t.Errorf("%s: the HTML differs from the report drawn in the transaction", a.name)
		}
		var ai, bi []string
		for id := range a.inline {
			ai = append(ai, id)
		}
		for id := range b.inline {
			bi = append(bi, id)
		}
		slices.Sort(ai)
		slices.Sort(bi)
		if !slices.Equal(ai, bi) || len(ai) < 7 { // the board, five registers, the GIF
			t.Errorf("%s: pictures %v, want %v (7 or more)", a.name, ai, bi)
		}
	}
	// The sender sends each report once, with its pictures.
	s := &fakeSender{}
	if _, err := f.j.DrainOutbox(ctx, s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, raw := range s.sent {
		if strings.Contains(string(raw), "Turn 1 report") {
			n++
			if !strings.Contains(string(raw), "image/gif") {
				t.Errorf("a report went without its animation")
			}
		}
	}
	if n != 4 {
		t.Errorf("%d reports sent, want 4", n)
	}
}

// TestReportPicturesCrash (issue 24 item 3): the judge dies after a turn's commit with
// its pictures drawn and not stored; the next drain draws them again and sends every
// report once, with its pictures. A drain that stops before the pictures sends no
// report without them.
func TestReportPicturesCrash(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.resolveTurn1()
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
		if jobs := f.pictureJobs(); len(jobs) != 3 {
			t.Fatalf("after a crash with the pictures drawn, %d reports await them, want 3", len(jobs))
		}
	}
	s.sent = nil
	for range 2 {
		if _, err := f.j.DrainOutbox(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for _, raw := range s.sent {
		if r := string(raw); strings.Contains(r, "Turn 1 report") {
			p := parseReport(t, "report", raw)
			seen[p.messageID]++
			if len(p.inline) < 7 {
				t.Errorf("%s went with %d pictures, want 7 or more", p.messageID, len(p.inline))
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("reports sent: %v, want 3", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
}

// TestReportPicturesOfAVoidTurn: a turn rolled back before its pictures were drawn
// sends none of its reports; the turn resolved again sends its own, with pictures.
func TestReportPicturesOfAVoidTurn(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.resolveTurn1()
	if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: "ROLLBACK"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: "PROCESS"}); err != nil {
		t.Fatal(err)
	}
	s := &fakeSender{}
	if _, err := f.j.DrainOutbox(ctx, s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, raw := range s.sent {
		if strings.Contains(string(raw), "Turn 1 report") {
			p := parseReport(t, "report", raw)
			if !strings.Contains(p.subject, "resolved again") {
				t.Errorf("the void turn's report %s was sent", p.messageID)
			}
			if len(p.inline) < 7 {
				t.Errorf("%s went with %d pictures, want 7 or more", p.messageID, len(p.inline))
			}
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d reports sent, want the 3 of the turn resolved again", n)
	}
	if jobs := f.pictureJobs(); len(jobs) != 0 {
		t.Errorf("%d picture jobs left", len(jobs))
	}
}

// TestReportPicturesOfTwoTurns: two turns resolved before the sender ran; one drain
// draws both turns' pictures, a turn at a time, and sends all six reports with them.
func TestReportPicturesOfTwoTurns(t *testing.T) {
	f := newFixture(t)
	f.resolveTurn1()
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	if g, _ := f.state(); g.CurrentTurn != 3 {
		t.Fatalf("turn 2 was not resolved: the game is at turn %d", g.CurrentTurn)
	}
	if jobs := f.pictureJobs(); len(jobs) != 6 {
		t.Fatalf("%d reports await their pictures, want 6", len(jobs))
	}
	s := &fakeSender{}
	if _, err := f.j.DrainOutbox(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, raw := range s.sent {
		if r := string(raw); strings.Contains(r, "Turn 1 report") || strings.Contains(r, "Turn 2 report") {
			p := parseReport(t, "report", raw)
			n++
			if len(p.inline) < 7 {
				t.Errorf("%s went with %d pictures, want 7 or more", p.messageID, len(p.inline))
			}
		}
	}
	if n != 6 {
		t.Errorf("%d reports sent, want 6", n)
	}
}

// TestTwoJudgesDrawEachReportOnce (PostgreSQL): two judges on one database drain the
// outbox at once while a turn's reports await their pictures; each report is drawn
// under its claim and sent once, with its pictures.
func TestTwoJudgesDrawEachReportOnce(t *testing.T) {
	a, b := twoJudges(t, "postgres")
	ctx := context.Background()
	spec := GameSpec{Tag: "twodrawers", Settings: map[string]string{"course": "sprint"}, Seed: 5,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	robots := []string{"Alice", "Bob", "Carol"}
	for _, r := range robots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: strings.ToLower(r) + "@example.test"})
	}
	secrets, err := a.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	var g store.Game
	var st *adjudicator.State
	if err := a.Store.View(ctx, func(tx *store.Tx) error {
		if g, err = tx.GameByTag("twodrawers"); err != nil {
			return err
		}
		st, _, err = testStateOf(tx, g)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	setup, err := a.setupFor(g)
	if err != nil {
		t.Fatal(err)
	}
	var sheets []mail.Fetched
	for i, r := range st.Robots {
		var cards []string
		for _, p := range roborally.RandomProgram(setup, st, i, 77, 1) {
			cards = append(cards, fmt.Sprintf("P%d", p))
		}
		body := fmt.Sprintf("robot %s\nturn 1\nsecret %s\n%s\n", r.Name, secrets[r.Name], strings.Join(cards, " "))
		sheets = append(sheets, mail.Fetched{UID: uint32(i + 1), Received: time.Now(),
			Raw: rawMail(strings.ToLower(r.Name)+"@example.test", "[RR twodrawers] turn 1", body)})
	}
	for _, err := range a.HandleBatch(ctx, 1, sheets) {
		if err != nil {
			t.Fatal(err)
		}
	}
	var jobs []store.PictureJob
	if err := a.Store.View(ctx, func(tx *store.Tx) error { jobs, err = tx.PictureJobs(100); return err }); err != nil || len(jobs) != 3 {
		t.Fatalf("%d reports await their pictures (%v), want 3", len(jobs), err)
	}
	sa, sb := &fakeSender{}, &fakeSender{}
	errs := make(chan error, 2)
	go func() { _, err := a.DrainOutbox(ctx, sa); errs <- err }()
	go func() { _, err := b.DrainOutbox(ctx, sb); errs <- err }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for _, raw := range append(sa.sent, sb.sent...) {
		if !strings.Contains(string(raw), "Turn 1 report") {
			continue
		}
		p := parseReport(t, "report", raw)
		seen[p.messageID]++
		if len(p.inline) < 7 {
			t.Errorf("%s went with %d pictures, want 7 or more", p.messageID, len(p.inline))
		}
	}
	if len(seen) != 3 {
		t.Errorf("reports sent: %v, want 3", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
}
