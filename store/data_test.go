package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// newGame creates a running game with two players and returns its ID.
func newGame(t testing.TB, st *Store, tag string) int64 {
	t.Helper()
	var id int64
	mustTx(t, st, func(tx *Tx) error {
		var err error
		if id, err = tx.CreateGame(testGame(tag)); err != nil {
			return err
		}
		for seat, robot := range []string{"Twonky", "Zoom Bot"} {
			p := Player{GameID: id, Robot: robot, Seat: seat, Email: strings.ToLower(strings.ReplaceAll(robot, " ", "")) + "@example.org",
				SecretHash: fakeHash(seat), Created: t0}
			if _, err := tx.AddPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	return id
}

// fakeHash is a well-formed bcrypt string that needs no bcrypt work.
func fakeHash(i int) string {
	return fmt.Sprintf("$2a$10$%053d", i)
}

func TestGameRoundTrip(t *testing.T) { bothBackends(t, testGameRoundTrip) }

func testGameRoundTrip(t *testing.T) {
	st := openTest(t)
	g := testGame("spring-open")
	g.DeadlineAt = t0.Add(48 * time.Hour)
	g.ListAddress = "rr-list@example.org"
	var id int64
	mustTx(t, st, func(tx *Tx) error {
		var err error
		id, err = tx.CreateGame(g)
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		got, err := tx.GameByTag("SPRING-OPEN")
		if err != nil {
			return err
		}
		g.ID = id
		if !reflect.DeepEqual(got, g) {
			t.Errorf("game round trip:\n got %+v\nwant %+v", got, g)
		}
		if _, err := tx.GameByTag("autumn"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown tag: %v, want ErrNotFound", err)
		}
		return nil
	})
	err := st.Tx(context.Background(), func(tx *Tx) error {
		_, err := tx.CreateGame(testGame("Spring-Open"))
		return err
	})
	if err == nil {
		t.Error("a second game with the same tag (other case) was accepted")
	}
}

func TestGamesDue(t *testing.T) { bothBackends(t, testGamesDue) }

func testGamesDue(t *testing.T) {
	st := openTest(t)
	a := newGame(t, st, "a")
	b := newGame(t, st, "b")
	c := newGame(t, st, "c")
	mustTx(t, st, func(tx *Tx) error {
		// grace is 2h (testGame)
		if err := tx.SetDeadline(a, t0.Add(-3*time.Hour)); err != nil { // due
			return err
		}
		if err := tx.SetDeadline(b, t0.Add(-1*time.Hour)); err != nil { // in grace
			return err
		}
		if err := tx.SetDeadline(c, t0.Add(-5*time.Hour)); err != nil { // due but paused
			return err
		}
		return tx.SetGameStatus(c, GamePaused)
	})
	mustView(t, st, func(tx *Tx) error {
		due, err := tx.GamesDue(t0)
		if err != nil {
			return err
		}
		if len(due) != 1 || due[0].ID != a {
			t.Errorf("due %+v, want only game %d", due, a)
		}
		return nil
	})
	// At the edge: deadline plus grace exactly now is due; a microsecond later is not;
	// a deadline ahead or none is not.
	d, e, f := newGame(t, st, "d"), newGame(t, st, "e"), newGame(t, st, "f")
	mustTx(t, st, func(tx *Tx) error {
		if err := tx.SetDeadline(d, t0.Add(-2*time.Hour)); err != nil {
			return err
		}
		if err := tx.SetDeadline(e, t0.Add(-2*time.Hour+time.Microsecond)); err != nil {
			return err
		}
		return tx.SetDeadline(f, t0.Add(time.Hour))
	})
	mustView(t, st, func(tx *Tx) error {
		due, err := tx.GamesDue(t0)
		if err != nil {
			return err
		}
		if len(due) != 2 || due[0].ID != a || due[1].ID != d {
			t.Errorf("due %+v, want games %d and %d", due, a, d)
		}
		// The query reads the index (migration 013), not every game (SQLite's plan; a
		// PostgreSQL planner reads a table this small whole whatever the indexes).
		if onPostgres(t) {
			return nil
		}
		rows, err := tx.query(`EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = ? AND deadline_at IS NOT NULL AND deadline_at <= ?`, "running", fmtTime(t0))
		if err != nil {
			return err
		}
		defer rows.Close()
		plan := ""
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				return err
			}
			plan += detail + "; "
		}
		if !strings.Contains(plan, "games_due") {
			t.Errorf("GamesDue's query plan %q does not use the games_due index", plan)
		}
		return rows.Err()
	})
}

func TestDeadlineRuleNext(t *testing.T) {
	tests := []struct {
		rule DeadlineRule
		last time.Time
		want time.Time
		err  bool
	}{
		{DeadlineRule{Kind: DeadlineAfterReport, Hours: 48}, t0, t0.Add(48 * time.Hour), false},
		{DeadlineRule{Kind: DeadlineFixed, Clock: "18:00"}, t0, time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC), false},
		{DeadlineRule{Kind: DeadlineFixed, Clock: "12:00"}, t0, time.Date(2025, 3, 2, 12, 0, 0, 0, time.UTC), false},
		{DeadlineRule{Kind: DeadlineFixed, Clock: "06:30"}, t0, time.Date(2025, 3, 2, 6, 30, 0, 0, time.UTC), false},
		{DeadlineRule{Kind: DeadlineFixed, Clock: "6pm"}, t0, time.Time{}, true},
		{DeadlineRule{Kind: DeadlineAfterReport}, t0, time.Time{}, true},
		{DeadlineRule{Kind: "weekly"}, t0, time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := tt.rule.Next(tt.last)
		if (err != nil) != tt.err || !got.Equal(tt.want) {
			t.Errorf("%+v.Next(%v) = %v, %v; want %v (error %v)", tt.rule, tt.last, got, err, tt.want, tt.err)
		}
	}
}

func TestPlayers(t *testing.T) { bothBackends(t, testPlayers) }

func testPlayers(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	mustTx(t, st, func(tx *Tx) error {
		p, err := tx.PlayerByRobot(g, "zoom bot")
		if err != nil {
			return err
		}
		if p.Seat != 1 || p.Email != "zoombot@example.org" {
			t.Errorf("player %+v", p)
		}
		if err := tx.SetMissed(p.ID, 2); err != nil {
			return err
		}
		if err := tx.SetWithdrawn(p.ID, true); err != nil {
			return err
		}
		// refused writes run in a savepoint: on PostgreSQL a failed statement ends the
		// transaction but for a savepoint's rollback (doc.go)
		if err := tx.Savepoint(func() error { return tx.SetPlayerSecret(p.ID, "hunter2") }); err == nil {
			t.Error("a plain secret was accepted as a hash")
		}
		ps, err := tx.Players(g)
		if err != nil {
			return err
		}
		if len(ps) != 2 || ps[0].Robot != "Twonky" || ps[1].Missed != 2 || !ps[1].Withdrawn {
			t.Errorf("players %+v", ps)
		}
		byMail, err := tx.PlayersByEmail("ZoomBot@Example.org")
		if err != nil {
			return err
		}
		if len(byMail) != 1 || byMail[0].ID != p.ID {
			t.Errorf("players by email %+v", byMail)
		}
		// Same robot name (other case) or same seat twice: refused.
		if err := tx.Savepoint(func() error {
			_, err := tx.AddPlayer(Player{GameID: g, Robot: "TWONKY", Seat: 5, Email: "x@y", SecretHash: fakeHash(9), Created: t0})
			return err
		}); err == nil {
			t.Error("a second Twonky was accepted")
		}
		if err := tx.Savepoint(func() error {
			_, err := tx.AddPlayer(Player{GameID: g, Robot: "Hammer", Seat: 0, Email: "x@y", SecretHash: fakeHash(9), Created: t0})
			return err
		}); err == nil {
			t.Error("a second robot in seat 0 was accepted")
		}
		// A player of a game that does not exist: foreign keys are on.
		if err := tx.Savepoint(func() error {
			_, err := tx.AddPlayer(Player{GameID: 999, Robot: "Ghost", Seat: 0, Email: "x@y", SecretHash: fakeHash(9), Created: t0})
			return err
		}); err == nil {
			t.Error("a player of game 999 was accepted")
		}
		if _, err := tx.AddGM(GM{Email: "boss@example.org", SecretHash: fakeHash(7), Created: t0}); err != nil {
			return err
		}
		if _, err := tx.AddGM(GM{GameID: g, Email: "gm@example.org", SecretHash: fakeHash(8), Created: t0}); err != nil {
			return err
		}
		gms, err := tx.GMs(g)
		if err != nil {
			return err
		}
		if len(gms) != 2 || gms[0].GameID != 0 || gms[1].GameID != g {
			t.Errorf("game masters %+v", gms)
		}
		return nil
	})
}

func TestTurnSnapshotRoundTrip(t *testing.T) { bothBackends(t, testTurnSnapshotRoundTrip) }

func testTurnSnapshotRoundTrip(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	setup := Turn{GameID: g, Number: 0, After: json.RawMessage(`{"turn":0,"robots":[{"name":"Twonky","x":1}]}`), Resolved: t0}
	turn1 := Turn{GameID: g, Number: 1, Before: setup.After,
		After:    json.RawMessage(`{"turn":1,"robots":[{"name":"Twonky","x":4}]}`),
		Events:   json.RawMessage(`[{"register":1,"kind":"move","robot":"Twonky","to":[4,0]}]`),
		Resolved: t0.Add(50*time.Hour + 123456*time.Microsecond)}
	mustTx(t, st, func(tx *Tx) error {
		var err error
		if setup.ID, err = tx.SaveTurn(setup); err != nil {
			return err
		}
		turn1.ID, err = tx.SaveTurn(turn1)
		return err
	})
	setup.Events = json.RawMessage(`[]`)
	setup.Orders = json.RawMessage(`[]`)
	turn1.Orders = json.RawMessage(`[]`)
	mustView(t, st, func(tx *Tx) error {
		got, err := tx.LatestTurn(g)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, turn1) {
			t.Errorf("latest turn:\n got %+v\nwant %+v", got, turn1)
		}
		got0, err := tx.Turn(g, 0)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got0, setup) {
			t.Errorf("turn 0:\n got %+v\nwant %+v", got0, setup)
		}
		game, err := tx.Game(g)
		if err != nil {
			return err
		}
		if game.CurrentTurn != 2 {
			t.Errorf("current turn %d, want 2", game.CurrentTurn)
		}
		return nil
	})

	// Turn 1 again (a second resolution after a crash, say): refused.
	err := st.Tx(context.Background(), func(tx *Tx) error {
		_, err := tx.SaveTurn(turn1)
		return err
	})
	if !errors.Is(err, ErrTurnConflict) {
		t.Fatalf("saving turn 1 twice: %v, want ErrTurnConflict", err)
	}

	// Roll back turn 1: it stays, void; turn 1 can be resolved anew.
	mustTx(t, st, func(tx *Tx) error {
		n, err := tx.VoidTurnsFrom(g, 1, t0.Add(60*time.Hour))
		if err != nil {
			return err
		}
		if n != 1 {
			t.Errorf("voided %d turns, want 1", n)
		}
		latest, err := tx.LatestTurn(g)
		if err != nil {
			return err
		}
		if latest.Number != 0 {
			t.Errorf("latest turn after void: %d, want 0", latest.Number)
		}
		again := turn1
		again.After = json.RawMessage(`{"turn":1,"robots":[{"name":"Twonky","x":2}]}`)
		if _, err := tx.SaveTurn(again); err != nil {
			return err
		}
		got, err := tx.Turn(g, 1)
		if err != nil {
			return err
		}
		if string(got.After) != string(again.After) {
			t.Errorf("turn 1 after re-resolution: %s", got.After)
		}
		var all, void int
		if err := tx.queryRow(`SELECT count(*), sum(void) FROM turns WHERE game_id = ? AND number = 1`, g).Scan(&all, &void); err != nil {
			return err
		}
		if all != 2 || void != 1 {
			t.Errorf("turn 1 rows %d (void %d), want 2 (1)", all, void)
		}
		return nil
	})
}

func TestOrdersVersionsAndLatestValid(t *testing.T) {
	bothBackends(t, testOrdersVersionsAndLatestValid)
}

func testOrdersVersionsAndLatestValid(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	sheets := []OrderSheet{
		{Robot: "Twonky", Raw: "1: U1 …", Parsed: json.RawMessage(`{"v":1}`), Valid: true, Received: t0},
		{Robot: "Twonky", Raw: "1: X9", Valid: false, Errors: []string{"line 1: X9 is not a card"}, Received: t0.Add(time.Hour)}, // later but invalid
		{Robot: "Zoom Bot", Raw: "zb v1", Parsed: json.RawMessage(`{"v":1}`), Valid: true, Received: t0.Add(time.Minute)},
		{Robot: "Zoom Bot", Raw: "zb v2", Parsed: json.RawMessage(`{"v":2}`), Valid: true, Received: t0.Add(2 * time.Minute)},
		{Robot: "Zoom Bot", Raw: "zb v0 (slow mail)", Parsed: json.RawMessage(`{"v":0}`), Valid: true, Received: t0.Add(30 * time.Second)}, // stored last, received first
		{Robot: "Zoom Bot", Turn: 2, Raw: "next turn", Parsed: json.RawMessage(`{"v":9}`), Valid: true, Received: t0.Add(3 * time.Minute)},
	}
	mustTx(t, st, func(tx *Tx) error {
		for _, o := range sheets {
			o.GameID = g
			if o.Turn == 0 {
				o.Turn = 1
			}
			if _, err := tx.AddOrders(o); err != nil {
				return err
			}
		}
		return nil
	})
	mustView(t, st, func(tx *Tx) error {
		latest, err := tx.LatestValidOrders(g, 1)
		if err != nil {
			return err
		}
		if len(latest) != 2 || latest["Twonky"].Raw != "1: U1 …" || latest["Zoom Bot"].Raw != "zb v2" {
			t.Errorf("latest valid: %+v", latest)
		}
		if string(latest["Zoom Bot"].Parsed) != `{"v":2}` {
			t.Errorf("parsed %s", latest["Zoom Bot"].Parsed)
		}
		vs, err := tx.OrderVersions(g, 1, "Twonky")
		if err != nil {
			return err
		}
		if len(vs) != 2 || vs[1].Valid || !reflect.DeepEqual(vs[1].Errors, []string{"line 1: X9 is not a card"}) || vs[1].Parsed != nil {
			t.Errorf("Twonky's versions %+v", vs)
		}
		none, err := tx.LatestValidOrders(g, 3)
		if err != nil {
			return err
		}
		if len(none) != 0 {
			t.Errorf("turn 3 orders %+v", none)
		}
		return nil
	})
}

func TestInboxInsertIdempotent(t *testing.T) { bothBackends(t, testInboxInsertIdempotent) }

func testInboxInsertIdempotent(t *testing.T) {
	st := openTest(t)
	msg := InboxMessage{UIDValidity: 7, UID: 1, MessageID: "<a@x>", From: "p@example.org", Subject: "[RR spring-open] orders",
		Raw: []byte("Subject: x\r\n\r\nbody"), Received: t0}
	var first InboxMessage
	mustTx(t, st, func(tx *Tx) error {
		var dup bool
		var err error
		first, dup, err = tx.InboxInsert(msg)
		if err != nil {
			return err
		}
		if dup || first.ID == 0 || first.Status != InboxNew || first.Size != int64(len(msg.Raw)) {
			t.Errorf("first insert: %+v dup %v", first, dup)
		}
		return nil
	})
	tests := []struct {
		name string
		m    InboxMessage
		dup  bool
	}{
		{"same uid", InboxMessage{UIDValidity: 7, UID: 1, MessageID: "<other@x>", Raw: []byte("x"), Received: t0}, true},
		{"same message-id, mailbox rebuilt", InboxMessage{UIDValidity: 8, UID: 1, MessageID: "<a@x>", Raw: []byte("x"), Received: t0}, true},
		{"same message-id, new uid", InboxMessage{UIDValidity: 7, UID: 2, MessageID: "<a@x>", Raw: []byte("x"), Received: t0}, true},
		{"new", InboxMessage{UIDValidity: 7, UID: 3, MessageID: "<b@x>", Raw: []byte("y"), Received: t0}, false},
		{"no message-id", InboxMessage{UIDValidity: 7, UID: 4, Raw: []byte("z"), Received: t0}, false},
		{"no message-id either", InboxMessage{UIDValidity: 7, UID: 5, Raw: []byte("z"), Received: t0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustTx(t, st, func(tx *Tx) error {
				got, dup, err := tx.InboxInsert(tt.m)
				if err != nil {
					return err
				}
				if dup != tt.dup {
					t.Errorf("dup %v, want %v", dup, tt.dup)
				}
				if tt.dup && !reflect.DeepEqual(got, first) {
					t.Errorf("dup returned %+v, want the first row %+v", got, first)
				}
				return nil
			})
		})
	}
	mustTx(t, st, func(tx *Tx) error {
		var n int
		if err := tx.queryRow(`SELECT count(*) FROM inbox`).Scan(&n); err != nil {
			return err
		}
		if n != 4 {
			t.Errorf("%d inbox rows, want 4", n)
		}
		if err := tx.InboxSetStatus(first.ID, InboxProcessed, "orders accepted", t0.Add(time.Minute)); err != nil {
			return err
		}
		news, err := tx.InboxByStatus(InboxNew, 10)
		if err != nil {
			return err
		}
		if len(news) != 3 {
			t.Errorf("%d new messages, want 3", len(news))
		}
		got, err := tx.InboxGet(first.ID)
		if err != nil {
			return err
		}
		if got.Status != InboxProcessed || got.Note != "orders accepted" || !bytes.Equal(got.Raw, msg.Raw) {
			t.Errorf("after set status: %+v", got)
		}
		max, err := tx.InboxMaxUID(7)
		if err != nil {
			return err
		}
		if max != 5 {
			t.Errorf("max uid %d, want 5", max)
		}
		if err := tx.SetMailboxState(MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 5, Updated: t0}); err != nil {
			return err
		}
		if err := tx.SetMailboxState(MailboxState{Mailbox: "INBOX", UIDValidity: 8, LastUID: 2, Updated: t0}); err != nil {
			return err
		}
		ms, err := tx.MailboxState("INBOX")
		if err != nil {
			return err
		}
		if ms.UIDValidity != 8 || ms.LastUID != 2 {
			t.Errorf("mailbox state %+v", ms)
		}
		if _, err := tx.MailboxState("Junk"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown mailbox: %v", err)
		}
		return nil
	})
}

func testMail(id string, game int64, turn int) OutboxMail {
	return OutboxMail{MessageID: id, To: []string{"p@example.org"}, From: "judge@example.org", Subject: "turn report",
		Raw: []byte("Message-ID: " + id + "\r\n\r\nreport"), Kind: "report", GameID: game, Turn: turn, Created: t0}
}

func TestOutboxRetryBackoffFailed(t *testing.T) { bothBackends(t, testOutboxRetryBackoffFailed) }

func testOutboxRetryBackoffFailed(t *testing.T) {
	st := openTestWith(t, testDB(t), Options{Retry: RetryPolicy{Base: time.Minute, Cap: 5 * time.Minute, MaxAttempts: 6}})
	ctx := context.Background()
	var a, b, c OutboxMail
	mustTx(t, st, func(tx *Tx) error {
		var err error
		if a, _, err = tx.Enqueue(testMail("<a@judge>", 0, -1)); err != nil {
			return err
		}
		if b, _, err = tx.Enqueue(testMail("<b@judge>", 0, -1)); err != nil {
			return err
		}
		later := testMail("<c@judge>", 0, -1)
		later.NextAttempt = t0.Add(time.Hour)
		if c, _, err = tx.Enqueue(later); err != nil {
			return err
		}
		again, dup, err := tx.Enqueue(testMail("<a@judge>", 0, -1))
		if err != nil {
			return err
		}
		if !dup || again.ID != a.ID {
			t.Errorf("enqueue the same Message-ID again: dup %v id %d, want true %d", dup, again.ID, a.ID)
		}
		return nil
	})
	due, err := st.DuePending(ctx, t0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 || due[0].ID != a.ID || due[1].ID != b.ID {
		t.Fatalf("due at t0: %+v", due)
	}
	if err := st.MarkSent(ctx, a.ID, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkSent(ctx, a.ID, t0.Add(2*time.Second)); !errors.Is(err, ErrNotFound) {
		t.Errorf("marking a sent mail sent again: %v, want ErrNotFound", err)
	}

	// b fails again and again: 1m, 2m, 4m, 5m (cap), 5m, then failed at attempt 6.
	now := t0
	wantDelays := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	for i, d := range wantDelays {
		status, err := st.MarkRetry(ctx, b.ID, now, errors.New("451 4.3.0 try again later"))
		if err != nil {
			t.Fatal(err)
		}
		if status != OutboxPending {
			t.Fatalf("attempt %d: status %s", i+1, status)
		}
		mustView(t, st, func(tx *Tx) error {
			m, err := tx.OutboxGet(b.ID)
			if err != nil {
				return err
			}
			if m.Attempts != i+1 || !m.NextAttempt.Equal(now.Add(d)) || m.LastError != "451 4.3.0 try again later" {
				t.Errorf("attempt %d: attempts %d next %v (want +%v) error %q", i+1, m.Attempts, m.NextAttempt, d, m.LastError)
			}
			return nil
		})
		if due, _ := st.DuePending(ctx, now.Add(d-time.Second), 10); containsMail(due, b.ID) {
			t.Errorf("attempt %d: due a second early", i+1)
		}
		now = now.Add(d)
		if due, _ := st.DuePending(ctx, now, 10); !containsMail(due, b.ID) {
			t.Errorf("attempt %d: not due on time", i+1)
		}
	}
	status, err := st.MarkRetry(ctx, b.ID, now, errors.New("451 still not"))
	if err != nil || status != OutboxFailed {
		t.Fatalf("attempt 6: %s, %v; want failed", status, err)
	}
	// c: a permanent error.
	if err := st.MarkFailed(ctx, c.ID, errors.New("550 5.1.1 no such user")); err != nil {
		t.Fatal(err)
	}
	mustView(t, st, func(tx *Tx) error {
		for _, want := range []struct {
			id     int64
			status OutboxStatus
			errSub string
		}{{a.ID, OutboxSent, ""}, {b.ID, OutboxFailed, "gave up after 6 attempts: 451 still not"}, {c.ID, OutboxFailed, "550 5.1.1"}} {
			m, err := tx.OutboxGet(want.id)
			if err != nil {
				return err
			}
			if m.Status != want.status || !strings.Contains(m.LastError, want.errSub) {
				t.Errorf("mail %d: %s %q, want %s %q", m.ID, m.Status, m.LastError, want.status, want.errSub)
			}
			if want.status == OutboxSent && !m.Sent.Equal(t0.Add(time.Second)) {
				t.Errorf("sent at %v", m.Sent)
			}
		}
		next, err := tx.NextDue()
		if err != nil {
			return err
		}
		if !next.IsZero() {
			t.Errorf("next due %v with nothing pending", next)
		}
		return nil
	})
	if due, _ := st.DuePending(ctx, now.Add(24*time.Hour), 10); len(due) != 0 {
		t.Errorf("still due: %+v", due)
	}
	mustView(t, st, func(tx *Tx) error {
		c, err := tx.Counts()
		if err != nil {
			return err
		}
		want := map[OutboxStatus]int{OutboxSent: 1, OutboxFailed: 2}
		if !reflect.DeepEqual(c.Outbox, want) || len(c.Inbox) != 0 {
			t.Errorf("counts %+v, want outbox %v and an empty inbox", c, want)
		}
		return nil
	})
}

// TestZeroTimeRefused: the store never reads the clock, so a forgotten time
// is an error, not "now" and not year 1.
func TestZeroTimeRefused(t *testing.T) { bothBackends(t, testZeroTimeRefused) }

func testZeroTimeRefused(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	calls := map[string]func(tx *Tx) error{
		"CreateGame": func(tx *Tx) error {
			gm := testGame("x")
			gm.Created = time.Time{}
			_, err := tx.CreateGame(gm)
			return err
		},
		"AddPlayer": func(tx *Tx) error {
			_, err := tx.AddPlayer(Player{GameID: g, Robot: "R", Seat: 9, Email: "r@x", SecretHash: fakeHash(1)})
			return err
		},
		"AddGM":    func(tx *Tx) error { _, err := tx.AddGM(GM{Email: "r@x", SecretHash: fakeHash(1)}); return err },
		"SaveTurn": func(tx *Tx) error { _, err := tx.SaveTurn(Turn{GameID: g, After: json.RawMessage(`{}`)}); return err },
		"AddOrders": func(tx *Tx) error {
			_, err := tx.AddOrders(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky"})
			return err
		},
		"InboxInsert": func(tx *Tx) error { _, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: 1}); return err },
		"Enqueue": func(tx *Tx) error {
			m := testMail("<z@judge>", 0, -1)
			m.Created = time.Time{}
			_, _, err := tx.Enqueue(m)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := st.Tx(context.Background(), call)
			if err == nil || !strings.Contains(err.Error(), "time given") {
				t.Errorf("%s with a zero time: %v", name, err)
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	p := DefaultRetry()
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w {
			t.Errorf("Delay(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := p.Delay(1000); got != time.Hour {
		t.Errorf("Delay(1000) = %v (overflow?)", got)
	}
}

func containsMail(ms []OutboxMail, id int64) bool {
	for _, m := range ms {
		if m.ID == id {
			return true
		}
	}
	return false
}

// TestTxRollbackLeavesNothing: a turn and its mails go together or not at all.
func TestTxRollbackLeavesNothing(t *testing.T) { bothBackends(t, testTxRollbackLeavesNothing) }

func testTxRollbackLeavesNothing(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	mustTx(t, st, func(tx *Tx) error {
		_, err := tx.SaveTurn(Turn{GameID: g, Number: 0, After: json.RawMessage(`{}`), Resolved: t0})
		return err
	})
	boom := errors.New("smtp template broke")
	err := st.Tx(context.Background(), func(tx *Tx) error {
		if _, err := tx.SaveTurn(Turn{GameID: g, Number: 1, Before: json.RawMessage(`{}`), After: json.RawMessage(`{"t":1}`), Resolved: t0}); err != nil {
			return err
		}
		for i := 0; i < 3; i++ {
			if _, _, err := tx.Enqueue(testMail(fmt.Sprintf("<r%d@judge>", i), g, 1)); err != nil {
				return err
			}
		}
		if _, err := tx.Audit(AuditEntry{At: t0, GameID: g, Actor: "judge", Action: "resolve"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx returned %v, want the callback's error", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a panic in the callback was swallowed")
			}
		}()
		st.Tx(context.Background(), func(tx *Tx) error {
			tx.SaveTurn(Turn{GameID: g, Number: 1, After: json.RawMessage(`{"t":1}`), Resolved: t0})
			panic("template bug")
		})
	}()
	mustView(t, st, func(tx *Tx) error {
		latest, err := tx.LatestTurn(g)
		if err != nil {
			return err
		}
		game, err := tx.Game(g)
		if err != nil {
			return err
		}
		mails, err := tx.OutboxByGame(g, -1)
		if err != nil {
			return err
		}
		audit, err := tx.AuditLog(g, 10)
		if err != nil {
			return err
		}
		if latest.Number != 0 || game.CurrentTurn != 1 || len(mails) != 0 || len(audit) != 0 {
			t.Errorf("after rollback: latest turn %d, current %d, %d mails, %d audit entries; want 0, 1, 0, 0",
				latest.Number, game.CurrentTurn, len(mails), len(audit))
		}
		return nil
	})
	// And the writer is free again: the next Tx commits.
	mustTx(t, st, func(tx *Tx) error {
		if _, err := tx.SaveTurn(Turn{GameID: g, Number: 1, After: json.RawMessage(`{"t":1}`), Resolved: t0}); err != nil {
			return err
		}
		_, _, err := tx.Enqueue(testMail("<r0@judge>", g, 1))
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		mails, err := tx.OutboxByGame(g, 1)
		if err != nil {
			return err
		}
		if len(mails) != 1 || mails[0].Turn != 1 || mails[0].GameID != g {
			t.Errorf("mails of turn 1: %+v", mails)
		}
		return nil
	})
}

func TestViewIsReadOnly(t *testing.T) { bothBackends(t, testViewIsReadOnly) }

func testViewIsReadOnly(t *testing.T) {
	st := openTest(t)
	err := st.View(context.Background(), func(tx *Tx) error {
		_, err := tx.CreateGame(testGame("x"))
		return err
	})
	if err == nil {
		t.Fatal("a write in View succeeded")
	}
}

func TestAuditAndAuthFailures(t *testing.T) { bothBackends(t, testAuditAndAuthFailures) }

func testAuditAndAuthFailures(t *testing.T) {
	st := openTest(t)
	ctx := context.Background()
	g := newGame(t, st, "spring-open")
	mustTx(t, st, func(tx *Tx) error {
		for i, a := range []string{"create", "add player", "start"} {
			if _, err := tx.Audit(AuditEntry{At: t0.Add(time.Duration(i) * time.Minute), GameID: g, Actor: "gm@example.org", Action: a}); err != nil {
				return err
			}
		}
		_, err := tx.Audit(AuditEntry{At: t0, Actor: "judge", Action: "startup"})
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		es, err := tx.AuditLog(g, 2)
		if err != nil {
			return err
		}
		if len(es) != 2 || es[0].Action != "add player" || es[1].Action != "start" {
			t.Errorf("audit log %+v", es)
		}
		all, err := tx.AuditLog(0, 100)
		if err != nil {
			return err
		}
		if len(all) != 4 {
			t.Errorf("%d audit entries, want 4", len(all))
		}
		return nil
	})
	for i := 0; i < 5; i++ {
		if err := st.RecordAuthFailure(ctx, "mallory@example.org", t0.Add(time.Duration(i)*10*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	st.RecordAuthFailure(ctx, "alice@example.org", t0)
	n, err := st.AuthFailures(ctx, "mallory@example.org", t0.Add(15*time.Minute))
	if err != nil || n != 3 {
		t.Errorf("failures since +15m: %d, %v; want 3", n, err)
	}
	mustTx(t, st, func(tx *Tx) error {
		k, err := tx.PruneAuthFailures(t0.Add(25 * time.Minute))
		if err != nil {
			return err
		}
		if k != 4 {
			t.Errorf("pruned %d, want 4", k)
		}
		return nil
	})
}

func TestBackup(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	mustTx(t, st, func(tx *Tx) error {
		_, err := tx.SaveTurn(Turn{GameID: g, Number: 0, After: json.RawMessage(`{"board":"x"}`), Resolved: t0})
		return err
	})
	ctx := context.Background()
	dst := filepath.Join(t.TempDir(), "backup.db")
	// Hold a write transaction open (uncommitted) meanwhile: the backup must
	// neither wait for it nor include it.
	inTx, release, txDone := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		txDone <- st.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.CreateGame(testGame("uncommitted")); err != nil {
				return err
			}
			close(inTx)
			<-release
			return errors.New("rolled back on purpose")
		})
	}()
	<-inTx
	if err := st.Backup(ctx, dst); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-txDone; err == nil || !strings.Contains(err.Error(), "on purpose") {
		t.Fatal(err)
	}
	if err := st.Backup(ctx, dst); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("backup over an existing file: %v", err)
	}
	// A write after the backup is not in it.
	mustTx(t, st, func(tx *Tx) error { return tx.SetGameStatus(g, GameOver) })

	if _, err := os.Stat(dst + "-wal"); err == nil {
		t.Error("the backup has a -wal file; it should be standalone")
	}
	bk, err := Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	mustView(t, bk, func(tx *Tx) error {
		game, err := tx.GameByTag("spring-open")
		if err != nil {
			return err
		}
		ps, err := tx.Players(game.ID)
		if err != nil {
			return err
		}
		tn, err := tx.Turn(game.ID, 0)
		if err != nil {
			return err
		}
		if game.Status != GameRunning || len(ps) != 2 || string(tn.After) != `{"board":"x"}` {
			t.Errorf("backup: status %s, %d players, turn 0 %s", game.Status, len(ps), tn.After)
		}
		if _, err := tx.GameByTag("uncommitted"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the backup holds an uncommitted game: %v", err)
		}
		return nil
	})
}

// TestEnqueueAll: mails enqueued several to a statement are stored as Enqueue stores
// each, in order, whatever their count (every chunk size), a Message-ID already there
// or given twice is stored once, and a mail Enqueue would refuse is refused.
func TestEnqueueAll(t *testing.T) { bothBackends(t, testEnqueueAll) }

func testEnqueueAll(t *testing.T) {
	for _, n := range []int{1, 3, 4, 5, 16, 21, 64, 100, 150} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			st := openTest(t)
			var ms []OutboxMail
			for i := range n {
				m := testMail(fmt.Sprintf("<%d@judge>", i), 0, -1)
				m.Subject = fmt.Sprintf("mail %d", i)
				ms = append(ms, m)
			}
			again := testMail("<0@judge>", 0, -1)
			again.Subject = "again"
			mustTx(t, st, func(tx *Tx) error {
				if _, _, err := tx.Enqueue(ms[0]); err != nil {
					return err
				}
				return tx.EnqueueAll(append(ms[1:], again))
			})
			mustView(t, st, func(tx *Tx) error {
				due, err := tx.DuePending(t0, 1000)
				if err != nil {
					return err
				}
				if len(due) != n {
					t.Fatalf("%d mails stored, want %d", len(due), n)
				}
				for i, m := range due {
					if m.MessageID != ms[i].MessageID || m.Subject != ms[i].Subject || string(m.Raw) != string(ms[i].Raw) ||
						m.Status != OutboxPending || !m.NextAttempt.Equal(t0) || m.Turn != -1 || m.GameID != 0 {
						t.Errorf("mail %d stored as %+v, want %+v", i, m, ms[i])
					}
					if i > 0 && m.ID <= due[i-1].ID {
						t.Errorf("mail %d stored before mail %d", i, i-1)
					}
				}
				return nil
			})
		})
	}
	st := openTest(t)
	bad := testMail("<bad@judge>", 0, -1)
	bad.Raw = nil
	if err := st.Tx(context.Background(), func(tx *Tx) error {
		return tx.EnqueueAll([]OutboxMail{testMail("<ok@judge>", 0, -1), bad})
	}); err == nil || !strings.Contains(err.Error(), "raw") {
		t.Errorf("a mail without its bytes: %v, want refused", err)
	}
}

// BenchmarkEnqueue is 100 mails enqueued one statement each (Enqueue) and several to
// a statement (EnqueueAll). One op is one mail.
func BenchmarkEnqueue(b *testing.B) {
	for _, all := range []bool{false, true} {
		b.Run(map[bool]string{false: "one", true: "all"}[all], func(b *testing.B) {
			st := openTest(b)
			ms := make([]OutboxMail, b.N)
			for i := range ms {
				ms[i] = testMail(fmt.Sprintf("<%d@judge>", i), 0, -1)
				ms[i].Raw = bytes.Repeat([]byte("x"), 1000)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			defer func() {
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
				// on a shared machine the CPU time says more than the wall time
				b.ReportMetric(float64(cpu)/1000/float64(b.N), "cpu-µs/mail")
			}()
			for i := 0; i < b.N; i += 100 {
				batch := ms[i:min(i+100, b.N)]
				mustTx(b, st, func(tx *Tx) error {
					if all {
						return tx.EnqueueAll(batch)
					}
					for _, m := range batch {
						if _, _, err := tx.Enqueue(m); err != nil {
							return err
						}
					}
					return nil
				})
			}
		})
	}
}

// The feed of game changes (migration 013) lists each game written after a place once,
// whoever wrote it, and says when it no longer reaches back to a place (pruned).
func TestGameChangesAfter(t *testing.T) { bothBackends(t, testGameChangesAfter) }

func testGameChangesAfter(t *testing.T) {
	st := openTest(t)
	var start int64
	mustView(t, st, func(tx *Tx) error {
		var err error
		start, err = tx.LastGameChange()
		return err
	})
	a := newGame(t, st, "a")
	b := newGame(t, st, "b")
	var mid int64
	mustTx(t, st, func(tx *Tx) error {
		if err := tx.SetDeadline(a, t0); err != nil {
			return err
		}
		if err := tx.SetDeadline(a, t0.Add(time.Hour)); err != nil {
			return err
		}
		var err error
		mid, err = tx.LastGameChange()
		return err
	})
	mustTx(t, st, func(tx *Tx) error { return tx.SetGameStatus(b, GamePaused) })
	mustView(t, st, func(tx *Tx) error {
		ids, last, ok, err := tx.GameChangesAfter(start)
		if err != nil {
			return err
		}
		if !ok || len(ids) != 2 || ids[0] != a || ids[1] != b || last <= mid {
			t.Errorf("after %d: %v, last %d, ok %v; want [%d %d], past %d, ok", start, ids, last, ok, a, b, mid)
		}
		// on PostgreSQL the changes of the last minute come again, whatever the place
		// (a number below it may have committed after it: several judges write)
		wantMid, wantLast := []int64{b}, []int64(nil)
		if st.IsPostgres() {
			wantMid, wantLast = []int64{a, b}, []int64{a, b}
		}
		ids, _, ok, _ = tx.GameChangesAfter(mid)
		if !ok || !slices.Equal(ids, wantMid) {
			t.Errorf("after %d: %v ok %v, want %v", mid, ids, ok, wantMid)
		}
		ids, l2, ok, _ := tx.GameChangesAfter(last)
		if !ok || !slices.Equal(ids, wantLast) || l2 != last {
			t.Errorf("after the last: %v, %d, %v; want %v", ids, l2, ok, wantLast)
		}
		return nil
	})
	// Pruned past the place: not ok, the reader reads every game.
	mustTx(t, st, func(tx *Tx) error {
		p, err := tx.Prune(time.Now().Add(48*time.Hour), DefaultRetention())
		if p.GameChanges == 0 && err == nil {
			t.Error("prune removed no game change a day old")
		}
		return err
	})
	mustTx(t, st, func(tx *Tx) error { return tx.SetGameStatus(b, GameRunning) })
	mustView(t, st, func(tx *Tx) error {
		if _, _, ok, err := tx.GameChangesAfter(start); err != nil || ok {
			t.Errorf("after a pruned place: ok %v, %v; want not ok", ok, err)
		}
		return nil
	})
}
