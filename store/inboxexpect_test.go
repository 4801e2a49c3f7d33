package store

import (
	"fmt"
	"reflect"
	"testing"
)

// TestInboxExpect: mails InboxInsert queues after InboxExpect looked them up are
// stored, and returned, exactly as InboxInsert stores them one statement each: the same
// rows with the same IDs, the same duplicates found (by UID and by Message-ID, stored
// before the transaction or earlier in it, looked up or not), the same rows read back
// by other statements in the transaction; a sheet naming a queued mail (a foreign
// key) goes in after it.
func TestInboxExpect(t *testing.T) { bothBackends(t, testInboxExpect) }

func testInboxExpect(t *testing.T) {
	type result struct {
		Row InboxMessage
		Dup bool
	}
	run := func(expect bool) ([]result, []InboxMessage) {
		st := openTest(t)
		g := newGame(t, st, "spring-open")
		mustTx(t, st, func(tx *Tx) error { // stored before
			for _, m := range []InboxMessage{
				{UIDValidity: 7, UID: 1, MessageID: "<old@x>", Raw: []byte("old 1"), Received: t0},
				{UIDValidity: 7, UID: 2, Raw: []byte("old 2"), Received: t0},
				{UIDValidity: 6, UID: 3, MessageID: "<older@x>", Raw: []byte("other validity"), Received: t0},
			} {
				if _, _, err := tx.InboxInsert(m); err != nil {
					return err
				}
			}
			return nil
		})
		batch := []InboxMessage{
			{UID: 1, MessageID: "<again@x>"},  // its UID is stored
			{UID: 3, MessageID: "<old@x>"},    // its Message-ID is stored
			{UID: 4, MessageID: "<older@x>"},  // its Message-ID is stored under another UIDVALIDITY
			{UID: 5, MessageID: "<new@x>"},    // new
			{UID: 6, MessageID: "<new@x>"},    // the same Message-ID earlier in the batch
			{UID: 7},                          // new, no Message-ID
			{UID: 8},                          // new, no Message-ID
			{UID: 7, MessageID: "<twice@x>"},  // the same UID earlier in the batch
			{UID: 9, MessageID: "<late@x>"},   // not looked up
			{UID: 10, MessageID: "<late@x>"},  // not looked up, its Message-ID inserted just before
			{UID: 11, MessageID: "<again@x>"}, // new: the Message-ID of a mail of the batch that was a duplicate by UID
			{UID: 12, MessageID: "<new@x>"},   // looked up later, its Message-ID queued before
		}
		var got []result
		mustTx(t, st, func(tx *Tx) error {
			if expect {
				var uids []uint32
				var ids []string
				for _, m := range batch[:8] {
					uids, ids = append(uids, m.UID), append(ids, m.MessageID)
				}
				uids, ids = append(uids, 11), append(ids, "<again@x>")
				if err := tx.InboxExpect(7, uids, ids); err != nil {
					return err
				}
			}
			for i, m := range batch {
				if expect && m.UID == 12 { // the next few mails of the batch
					if err := tx.InboxExpect(7, []uint32{12}, []string{"<new@x>"}); err != nil {
						return err
					}
				}
				m.UIDValidity, m.Raw, m.Received, m.Status, m.Note = 7, []byte(fmt.Sprint("mail ", i)), t0, InboxProcessed, "accepted"
				row, dup, err := tx.InboxInsert(m)
				if err != nil {
					return err
				}
				got = append(got, result{row, dup})
				if i == 4 { // a sheet naming a queued mail
					if _, err := tx.AddOrdersLater(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", InboxID: row.ID, Raw: "sheet", Valid: true, Received: t0}); err != nil {
						return err
					}
				}
				if i == 5 { // a statement that reads the inbox sees the queued mails
					if err := tx.InboxSetStatus(row.ID, InboxRejected, "read back", t0); err != nil {
						return err
					}
				}
			}
			return nil
		})
		var rows []InboxMessage
		mustView(t, st, func(tx *Tx) error {
			for _, s := range []InboxStatus{InboxNew, InboxProcessed, InboxRejected} {
				r, err := tx.InboxByStatus(s, 100)
				if err != nil {
					return err
				}
				rows = append(rows, r...)
			}
			return nil
		})
		return got, rows
	}
	want, wantRows := run(false)
	got, gotRows := run(true)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("InboxInsert after InboxExpect returned\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(gotRows, wantRows) {
		t.Errorf("stored after InboxExpect:\n%+v\nwant\n%+v", gotRows, wantRows)
	}
	if len(wantRows) != 3+5 { // 5, 7, 8, 9 and 11 are new
		t.Errorf("%d rows stored, want 8 (the test lost its point)", len(wantRows))
	}
}
