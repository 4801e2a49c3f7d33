package store

import (
	"bytes"
	"fmt"
	"syscall"
	"testing"
)

// BenchmarkIntakeRows is the store's part of intake for one accepted sheet, as a batch
// of mail writes it (judge.handleBatch): the batch's mails looked up in the inbox
// (InboxExpect) a few at a time, each mail stored (InboxInsert, queued), its sheet and
// audit entry queued (AddOrdersLater, AuditLater), its acknowledgement enqueued with the
// batch's others (EnqueueAll), 100 mails a commit (synchronous=FULL, as the daemon
// runs). The rows are the sizes intake stores (a 350-byte mail, a 170-byte parsed
// sheet, a 950-byte acknowledgement). One op is one mail.
func BenchmarkIntakeRows(b *testing.B) {
	st := openTestWith(b, testDB(b), Options{})
	g := newGame(b, st, "bench")
	raw := bytes.Repeat([]byte("m"), 350)
	parsed := []byte(`{"robot":"Twonky","program":[` + string(bytes.Repeat([]byte(`"x",`), 30)) + `"x"]}`)
	ack := bytes.Repeat([]byte("a"), 950)
	b.ReportAllocs()
	b.ResetTimer()
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for i := 0; i < b.N; i += 100 {
		n := min(100, b.N-i)
		mustTx(b, st, func(tx *Tx) error {
			var acks []OutboxMail
			for k := 0; k < n; k++ {
				uid := uint32(i + k + 1)
				if k == 0 || k == 8 || k == 72 { // the batch's look-ups, as judge.handleBatch's
					end := min(n, k+min(64, 8*(k+1)))
					var uids []uint32
					var ids []string
					for u := k; u < end; u++ {
						uids, ids = append(uids, uint32(i+u+1)), append(ids, fmt.Sprintf("<%d@bench>", i+u+1))
					}
					if err := tx.InboxExpect(1, uids, ids); err != nil {
						return err
					}
				}
				m, dup, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uid, MessageID: fmt.Sprintf("<%d@bench>", uid),
					From: "twonky@example.org", Subject: "[RR bench] standing orders", Raw: raw, Received: t0,
					Status: InboxProcessed, Note: "accepted"})
				if err != nil || dup {
					return fmt.Errorf("uid %d: dup %v, %v", uid, dup, err)
				}
				if _, err := tx.AddOrdersLater(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", InboxID: m.ID, Raw: "robot Twonky\nif damage > 4 then power down\n",
					Parsed: parsed, Valid: true, Received: t0}); err != nil {
					return err
				}
				if _, err := tx.AuditLater(AuditEntry{At: t0, GameID: g, Actor: "twonky", Action: "orders", Detail: "turn 1"}); err != nil {
					return err
				}
				a := testMail(fmt.Sprintf("<ack-%d@judge>", uid), g, 1)
				a.Kind, a.Raw = "ack", ack
				acks = append(acks, a)
			}
			if err := tx.Flush(); err != nil {
				return err
			}
			return tx.EnqueueAll(acks)
		})
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	// on a shared machine the CPU time says more than the wall time
	b.ReportMetric(float64(cpu)/1000/float64(b.N), "cpu-µs/mail")
}
