package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestReplyCounts(t *testing.T) { bothBackends(t, testReplyCounts) }

// testReplyCounts: the counts and times the judge's reply limits read (issue 21 item 1),
// per address, per domain (a domain's own % and _ match only themselves), the n-th
// oldest in a window, and who observes what.
func testReplyCounts(t *testing.T) {
	st := openTest(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	gid := newGame(t, st, "g")
	err := st.Tx(context.Background(), func(tx *Tx) error {
		for i, to := range []string{"a@flood.test", "b@flood.test", "c@flood.test", "x@flo_d.test", "a@other.test"} {
			if _, _, err := tx.Enqueue(OutboxMail{MessageID: fmt.Sprintf("r%d@j", i), To: []string{to}, From: "j@example.test",
				Subject: "s", Raw: []byte("x"), Kind: "reject", Turn: -1, Created: now.Add(time.Duration(i) * time.Minute)}); err != nil {
				return err
			}
		}
		if n, err := tx.RepliesToDomainSince([]string{"reject"}, "flood.test", now); err != nil || n != 3 {
			t.Errorf("replies to flood.test: %d, %v; want 3", n, err)
		}
		if n, err := tx.RepliesToDomainSince([]string{"reject"}, "flo_d.test", now); err != nil || n != 1 {
			t.Errorf("replies to flo_d.test: %d, %v; want 1 (its _ is no wildcard)", n, err)
		}
		if at, err := tx.NthReplySince([]string{"reject"}, "", "flood.test", now, 1); err != nil || !at.Equal(now.Add(time.Minute)) {
			t.Errorf("the 2nd reply to flood.test: %v, %v; want %v", at, err, now.Add(time.Minute))
		}
		if at, err := tx.NthReplySince([]string{"reject"}, "a@other.test", "", now, 0); err != nil || !at.Equal(now.Add(4*time.Minute)) {
			t.Errorf("the 1st reply to a@other.test: %v, %v", at, err)
		}
		if at, err := tx.NthReplySince([]string{"reject"}, "a@other.test", "", now, 1); err != nil || !at.IsZero() {
			t.Errorf("a 2nd reply to a@other.test that was not: %v, %v", at, err)
		}
		for i, subj := range []string{"one", "two", "one"} {
			if _, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uint32(i + 1), From: "p@example.test", Subject: subj,
				Raw: []byte("x"), Size: 1, Received: now.Add(time.Duration(i) * time.Minute)}); err != nil {
				return err
			}
		}
		if at, err := tx.NthMailFromSince("P@example.test", []string{"one"}, now, 1); err != nil || !at.Equal(now.Add(2*time.Minute)) {
			t.Errorf("the 2nd mail with subject one: %v, %v", at, err)
		}
		if _, err := tx.AddObserver(gid, "w@example.test", now); err != nil {
			return err
		}
		if yes, err := tx.Observes(gid, "W@example.test"); err != nil || !yes {
			t.Errorf("observes: %v, %v", yes, err)
		}
		if yes, err := tx.IsObserver("nobody@example.test"); err != nil || yes {
			t.Errorf("is observer: %v, %v", yes, err)
		}
		if _, err := tx.AddPress(Press{GameID: gid, Turn: 1, From: "R", Body: "hi", Sent: now}); err != nil {
			return err
		}
		if n, err := tx.PressCount(gid, 1, "R"); err != nil || n != 1 {
			t.Errorf("press count %d, %v; want 1", n, err)
		}
		// an OBSERVE waiting for its CONFIRM and a JOIN waiting for its own keep each other
		hash, err := st.HashSecret("k7dm-3xqp-9wtr-hzv4")
		if err != nil {
			return err
		}
		for _, robot := range []string{"R2", ObserveRobot} {
			if _, err := tx.AddPendingJoin(PendingJoin{GameID: gid, Email: "n@example.test", Robot: robot, CodeHash: hash, Created: now}); err != nil {
				return err
			}
		}
		if ps, err := tx.PendingJoins("n@example.test", now.Add(-time.Hour)); err != nil || len(ps) != 2 {
			t.Errorf("a JOIN and an OBSERVE pending: %+v, %v", ps, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
