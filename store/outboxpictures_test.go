package store

import (
	"context"
	"testing"
	"time"
)

func TestOutboxPictures(t *testing.T) { bothBackends(t, testOutboxPictures) }

// testOutboxPictures: a mail awaiting its pictures is pending (DuePending) but not due to
// send (DueToSend) until CompletePictures puts the finished mail in its place; completing
// twice changes nothing, and a mail tried already or void keeps its bytes.
func testOutboxPictures(t *testing.T) {
	st := openTestWith(t, testDB(t), Options{})
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
		if c, _, err = tx.Enqueue(testMail("<c@judge>", 0, -1)); err != nil {
			return err
		}
		for _, m := range []OutboxMail{a, b, c} {
			if err := tx.AwaitPictures(m.ID, []byte(`{"job":"`+m.MessageID+`"}`)); err != nil {
				return err
			}
		}
		return tx.AwaitPictures(a.ID, []byte(`{"again":1}`)) // marked already: kept as it was
	})
	ids := func(ms []OutboxMail) (out []int64) {
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	later := t0.Add(time.Hour)
	if due, err := st.DueToSend(ctx, later, 10); err != nil || len(due) != 0 {
		t.Fatalf("due to send while every mail awaits its pictures: %v %v", ids(due), err)
	}
	if due, err := st.DuePending(ctx, later, 10); err != nil || len(due) != 3 {
		t.Fatalf("pending: %v %v, want all three", ids(due), err)
	}
	mustTx(t, st, func(tx *Tx) error {
		jobs, err := tx.PictureJobs(10)
		if err != nil {
			return err
		}
		if len(jobs) != 3 || jobs[0].OutboxID != a.ID || string(jobs[0].Job) != `{"job":"<a@judge>"}` {
			t.Errorf("jobs %+v", jobs)
		}
		// b's attempt began (a crash mid-send cannot happen to a marked mail, but a
		// row tried is never rewritten); c was voided.
		if _, err := tx.exec(`UPDATE outbox SET inflight = 1 WHERE id = ?`, b.ID); err != nil {
			return err
		}
		if _, err := tx.exec(`UPDATE outbox SET void_at = ? WHERE id = ?`, fmtTime(t0), c.ID); err != nil {
			return err
		}
		for _, m := range []OutboxMail{a, b, c} {
			ok, err := tx.CompletePictures(m.ID, []byte("with pictures"))
			if err != nil || !ok {
				t.Errorf("complete %s: %v %v, want true", m.MessageID, ok, err)
			}
		}
		if ok, err := tx.CompletePictures(a.ID, []byte("drawn twice")); err != nil || ok {
			t.Errorf("completing a twice: %v %v, want false", ok, err)
		}
		return nil
	})
	mustTx(t, st, func(tx *Tx) error {
		for _, w := range []struct {
			m    OutboxMail
			want string
		}{{a, "with pictures"}, {b, string(b.Raw)}, {c, string(c.Raw)}} {
			m, want := w.m, w.want
			got, err := tx.OutboxGet(m.ID)
			if err != nil {
				return err
			}
			if string(got.Raw) != want {
				t.Errorf("%s: raw %q, want %q", m.MessageID, got.Raw, want)
			}
		}
		jobs, err := tx.PictureJobs(10)
		if len(jobs) != 0 {
			t.Errorf("jobs left: %+v", jobs)
		}
		return err
	})
	if due, err := st.DueToSend(ctx, later, 10); err != nil || len(due) != 3 {
		t.Fatalf("due to send once complete: %v %v, want all three", ids(due), err)
	}
}
