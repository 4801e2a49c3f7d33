package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// TestBatchViewsFollowCommands: within one batch the sheets share what they read of
// their game (views.go), but a command mail in the middle that changes the game — a game
// master's PROCESS resolving the turn — is seen by every sheet after it: they are stored
// for the new turn, validated against its state and acknowledged for it.
func TestBatchViewsFollowCommands(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	ctx := context.Background()
	game := func() (g store.Game) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
		return g
	}
	alice1, _ := programSheet(t, j, secrets, "Alice", 0, 77)
	standing := func(robot, turnLine string) string {
		return fmt.Sprintf("robot %s\n%ssecret %s\nif damage > 4 then power down\n", robot, turnLine, secrets[robot])
	}
	bodies := []struct{ from, body string }{
		{"alice@example.test", alice1},
		{"bob@example.test", standing("Bob", "turn 1\n")},
		{"gm@example.test", "secret " + secrets[""] + "\nPROCESS\n"},
		{"alice@example.test", standing("Alice", "")},     // for the turn being played: 2
		{"bob@example.test", standing("Bob", "turn 2\n")}, // names turn 2
	}
	var batch []mail.Fetched
	for i, b := range bodies {
		batch = append(batch, mail.Fetched{UID: uint32(10 + i), Raw: rawMail(b.from, "[RR live] orders", b.body), Received: clock.Now()})
	}
	for i, err := range j.HandleBatch(ctx, 1, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	g := game()
	if g.CurrentTurn != 2 {
		t.Fatalf("game at turn %d after PROCESS, want 2", g.CurrentTurn)
	}
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		for _, c := range []struct {
			robot       string
			turn, valid int
		}{{"Alice", 1, 1}, {"Bob", 1, 1}, {"Alice", 2, 1}, {"Bob", 2, 1}} {
			vs, err := tx.OrderVersions(g.ID, c.turn, c.robot)
			if err != nil {
				t.Fatal(err)
			}
			valid := 0
			for _, v := range vs {
				if v.Valid {
					valid++
				}
			}
			if valid != c.valid || len(vs) != c.valid {
				t.Errorf("%s has %d versions for turn %d (%d valid), want %d valid", c.robot, len(vs), c.turn, valid, c.valid)
			}
		}
		ms, err := tx.OutboxByGame(g.ID, 2)
		if err != nil {
			t.Fatal(err)
		}
		acks := 0
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		if acks != 2 {
			t.Errorf("%d acknowledgements for turn 2, want 2 (Alice's and Bob's sheets after PROCESS)", acks)
		}
		return nil
	})
}

// TestBatchAcksSeeEarlierSheetsOfTheBatch: each acknowledgement in a batch tells the
// orders in force with every sheet stored before it in the same batch: a
// standing-orders-only sheet after a program keeps the program, and the last program in
// says the turn will be resolved.
func TestBatchAcksSeeEarlierSheetsOfTheBatch(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	ctx := context.Background()
	alice, _ := programSheet(t, j, secrets, "Alice", 0, 77)
	bob, _ := programSheet(t, j, secrets, "Bob", 1, 78)
	bodies := []struct{ from, body string }{
		{"alice@example.test", alice},
		{"alice@example.test", "robot Alice\nsecret " + secrets["Alice"] + "\nif damage > 4 then power down\n"},
		{"bob@example.test", bob},
	}
	var batch []mail.Fetched
	for i, b := range bodies {
		batch = append(batch, mail.Fetched{UID: uint32(10 + i), Raw: rawMail(b.from, "[RR live] orders", b.body), Received: clock.Now()})
	}
	for i, err := range j.HandleBatch(ctx, 1, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	var acks []string
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, 1)
		for _, m := range ms {
			if m.Kind == "ack" {
				ex, err := mail.Extract(m.Raw)
				if err != nil {
					t.Fatal(err)
				}
				acks = append(acks, ex.Text)
			}
		}
		return err
	})
	if len(acks) != 3 {
		t.Fatalf("%d acknowledgements, want 3", len(acks))
	}
	if !strings.Contains(acks[1], "damage > 4") || !strings.Contains(acks[1], "waiting for orders from 1 robot") {
		t.Errorf("alice's second acknowledgement does not keep her program with the new standing order:\n%s", acks[1])
	}
	if !strings.Contains(acks[2], "Every program is in") {
		t.Errorf("bob's acknowledgement, the last program in, does not say the turn is resolved:\n%s", acks[2])
	}
}

// TestBatchFailedMailKeptForRecover: in a batch, a mail whose processing breaks is
// rolled back alone and kept as failed, its secret replaced by a marker with its proof
// (failed.go); the mail after it is judged and kept with its secret removed from the
// start; once what broke is mended, Recover takes the failed one up and it
// authenticates.
func TestBatchFailedMailKeptForRecover(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sheet := f.sheet("Twonky", "")
	load := adjudicator.LoadCourse
	f.setCourses(func(string) (*adjudicator.Course, error) { return nil, errors.New("disk on fire") })
	const guess = "wrong-guess-1234"
	batch := []mail.Fetched{
		{UID: 1, Raw: rawMail("twonky@example.test", "[RR spring] orders", sheet), Received: f.now},
		{UID: 2, Raw: rawMail("zoombot@example.test", "[RR spring] orders", "robot Zoombot\nsecret "+guess+"\n"), Received: f.now},
	}
	for i, err := range f.j.HandleBatch(ctx, 7, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	failed, denied := f.inboxStatus(1), f.inboxStatus(2)
	if secret := []byte(f.secrets["Twonky"]); failed.Status != store.InboxFailed || bytes.Contains(failed.Raw, secret) || !bytes.Contains(failed.Raw, []byte("robot Twonky")) {
		t.Errorf("the mail that broke: status %s, secret kept %v; want failed, kept without its secret:\n%s", failed.Status, bytes.Contains(failed.Raw, secret), failed.Raw)
	}
	if denied.Status != store.InboxRejected || bytes.Contains(denied.Raw, []byte(guess)) || failed.ID >= denied.ID {
		t.Errorf("the mail after it: inbox %d status %s, secret kept %v; want rejected after inbox %d, its secret removed",
			denied.ID, denied.Status, bytes.Contains(denied.Raw, []byte(guess)), failed.ID)
	}
	f.setCourses(load)
	if err := f.j.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if row := f.inboxStatus(1); row.Status != store.InboxProcessed || bytes.Contains(row.Raw, []byte(f.secrets["Twonky"])) {
		t.Errorf("after Recover: %s (%s), secret kept %v", row.Status, row.Note, bytes.Contains(row.Raw, []byte(f.secrets["Twonky"])))
	}
	if acks := f.mailsTo("twonky@example.test", "ack"); len(acks) != 1 {
		t.Errorf("%d acknowledgements, want 1", len(acks))
	}
}

// TestBatchRecordsPosition: the daemon's batch records the mailbox position (its last
// UID) in its own transaction, so no commit of its own follows every batch; a position
// already past it stays.
func TestBatchRecordsPosition(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	batch := []mail.Fetched{
		{UID: 4, Raw: rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")), Received: f.now},
		{UID: 9, Raw: rawMail("zoombot@example.test", "hello", "HELP\n"), Received: f.now},
	}
	for i, err := range f.j.handleBatch(ctx, "INBOX", 7, batch, false) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if p, err := f.j.LoadPosition(ctx, "INBOX"); err != nil || p != (mail.Position{UIDValidity: 7, UID: 9}) {
		t.Errorf("position %+v (%v), want 7/9", p, err)
	}
	for i, err := range f.j.handleBatch(ctx, "INBOX", 7, batch[:1], false) { // offered again
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if p, _ := f.j.LoadPosition(ctx, "INBOX"); p.UID != 9 {
		t.Errorf("position went back to %d", p.UID)
	}
}

// TestBatchAckTemplateFails: a batch renders its acknowledgements beside the writer
// and stores them, with the sheets and audit entries it queued, before the commit. An
// acknowledgement that cannot be rendered (an override that breaks for one robot)
// fails its mail alone, as when it was rendered in line: the mail is kept as failed,
// with no sheet version, audit entry or acknowledgement; the other sheet of the batch
// is stored and acknowledged.
func TestBatchAckTemplateFails(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	dir := t.TempDir()
	over := "{{if eq .Robot \"Twonky\"}}{{index .Warnings 99}}{{end}}Orders of {{.Robot}} received.\n"
	if err := os.WriteFile(filepath.Join(dir, "ack.txt.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	f.j.Templates = set
	batch := []mail.Fetched{
		{UID: 1, Raw: rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")), Received: f.now},
		{UID: 2, Raw: rawMail("zoombot@example.test", "[RR spring] orders", f.sheet("Zoombot", "")), Received: f.now},
	}
	for i, err := range f.j.HandleBatch(ctx, 7, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if row := f.inboxStatus(1); row.Status != store.InboxFailed {
		t.Errorf("the mail whose acknowledgement broke: %s (%s), want failed", row.Status, row.Note)
	}
	if row := f.inboxStatus(2); row.Status != store.InboxProcessed {
		t.Errorf("the other mail: %s (%s), want processed", row.Status, row.Note)
	}
	if n := len(f.mailsTo("twonky@example.test", "ack")); n != 0 {
		t.Errorf("%d acknowledgements to twonky, want none", n)
	}
	if acks := f.mailsTo("zoombot@example.test", "ack"); len(acks) != 1 || !strings.Contains(textOf(t, acks[0]), "Orders of Zoombot received.") {
		t.Errorf("zoombot's acknowledgements: %d, want 1 rendered by the override", len(acks))
	}
	_ = f.j.Store.View(ctx, func(tx *store.Tx) error {
		g, _ := f.state()
		for robot, want := range map[string]int{"Twonky": 0, "Zoombot": 1} {
			vs, err := tx.OrderVersions(g.ID, g.CurrentTurn, robot)
			if err != nil || len(vs) != want {
				t.Errorf("%s: %d sheet versions (%v), want %d", robot, len(vs), err, want)
			}
		}
		log, err := tx.AuditLog(g.ID, 100)
		var actors []string
		for _, e := range log {
			if e.Action == "orders" {
				actors = append(actors, e.Actor)
			}
		}
		if err != nil || strings.Join(actors, " ") != "Zoombot" {
			t.Errorf("audit entries for orders by %v (%v), want Zoombot's alone", actors, err)
		}
		return nil
	})
}

// TestPreparedBatchReadOnce: a batch the fetcher's Prepare (prepareBatch) started reading
// is judged from that reading, not read again, and a mail the server gave no receive time
// is stored as received at the judge's now; a reading of other mails is not taken for
// the batch's.
func TestPreparedBatchReadOnce(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	ctx := context.Background()
	sheet := func(robot, order string) []byte {
		return rawMail(strings.ToLower(robot)+"@example.test", "[RR live] orders",
			"robot "+robot+"\nsecret "+secrets[robot]+"\nif damage > 4 then "+order+"\n")
	}
	batch := []mail.Fetched{
		{UID: 20, Raw: sheet("Alice", "power down"), Received: clock.Now().Add(-time.Hour)},
		{UID: 21, Raw: sheet("Bob", "power down")}, // no receive time from the server
	}
	j.prepareBatch(7, batch)
	if _, ok := prepared(7, batch); !ok {
		t.Fatal("the prepared batch is not found")
	}
	for _, other := range [][]mail.Fetched{batch[1:], {batch[1], batch[0]}} {
		if _, ok := prepared(7, other); ok {
			t.Errorf("a reading of other mails is taken for UIDs %d…", other[0].UID)
		}
	}
	if _, ok := prepared(8, batch); ok {
		t.Error("a reading under another UIDVALIDITY is taken")
	}
	// what the handler is given now is not what was read: the reading is what counts
	batch[1].Raw = []byte("From: bob@example.test\r\nSubject: junk\r\n\r\nnothing\r\n")
	for i, err := range j.HandleBatch(ctx, 7, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		for id, want := range map[int64]time.Time{1: clock.Now().Add(-time.Hour), 2: j.now()} {
			m, err := tx.InboxGet(id)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Received.Equal(want.UTC().Truncate(time.Second)) {
				t.Errorf("inbox %d received %v, want %v", id, m.Received, want)
			}
			if m.Note != noteAccepted {
				t.Errorf("inbox %d: %s %q, want the sheet read ahead accepted", id, m.Status, m.Note)
			}
		}
		return nil
	})
}

// TestBatchSecretsCheckedAsAhead: the keyed hash of a sheet's secret is worked out by the
// batch's readers, beside the writer (mailFacts); the writer still takes only the
// player's own secret: a wrong one, another player's, and the right one are judged in
// one batch as each would be alone.
func TestBatchSecretsCheckedAsAhead(t *testing.T) {
	j, secrets := movesAheadJudge(t, true)
	bodies := []struct{ from, body, note string }{
		{"alice", "robot Alice\nsecret " + secrets["Alice"] + "\nif damage > 4 then power down\n", noteAccepted},
		{"alice", "robot Alice\nsecret " + secrets["Bob"] + "\nif damage > 3 then power down\n", "wrong secret"},
		{"bob", "robot Bob\nsecret " + secrets["Alice"] + "\nif damage > 2 then power down\n", "wrong secret"},
		{"bob", "robot Bob\nsecret " + strings.ToUpper(secrets["Bob"][:1]) + secrets["Bob"][1:] + "x\nif damage > 2 then power down\n", "wrong secret"},
		{"bob", "robot Bob\nsecret " + secrets["Bob"] + "\nif damage > 1 then power down\n", noteAccepted},
	}
	var msgs []mail.Fetched
	for i, b := range bodies {
		msgs = append(msgs, mail.Fetched{UID: uint32(i + 1), Received: time.Date(2026, 3, 1, 12, 0, i, 0, time.UTC),
			Raw: rawMail(b.from+"@example.test", "[RR live] orders", b.body)})
	}
	for i, err := range j.HandleBatch(context.Background(), 1, msgs) {
		if err != nil {
			t.Fatalf("mail %d: %v", i+1, err)
		}
	}
	_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
		for i, b := range bodies {
			m, err := tx.InboxGet(int64(i + 1))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(m.Note, b.note) {
				t.Errorf("mail %d (%s): note %q, want %q", i+1, b.from, m.Note, b.note)
			}
		}
		return nil
	})
}
