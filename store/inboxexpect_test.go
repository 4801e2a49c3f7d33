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

// TestInboxExpectFindsStored: every mail of a batch whose UID the inbox holds already
// is found a duplicate after InboxExpect, wherever it lies among the UIDs looked up (the
// least, the greatest, between them) and however they are spread (a close run is read
// as one range of the index, scattered ones one by one), and a stored UID between them
// that the batch lacks makes none of the batch's a duplicate. A wrong look-up would
// judge a mail fetched twice twice.
func TestInboxExpectFindsStored(t *testing.T) {
	for _, c := range []struct {
		name          string
		stored, batch []uint32
	}{
		{"the least", []uint32{10}, []uint32{10, 11, 12, 13}},
		{"the greatest", []uint32{13}, []uint32{10, 11, 12, 13}},
		{"between", []uint32{11, 12}, []uint32{10, 11, 12, 13}},
		{"one before and one after", []uint32{9, 14}, []uint32{10, 11, 12, 13}},
		{"stored between, not in the batch", []uint32{11}, []uint32{10, 12, 13}},
		{"out of order", []uint32{13, 10}, []uint32{13, 12, 11, 10}},
		{"scattered", []uint32{5, 100000}, []uint32{5, 6, 50000, 100000, 200000}},
		{"scattered, stored between", []uint32{7}, []uint32{1, 100000}},
		{"one", []uint32{3}, []uint32{3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := openTest(t)
			mustTx(t, st, func(tx *Tx) error {
				for _, u := range c.stored {
					if _, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 7, UID: u, Raw: []byte("stored"), Received: t0}); err != nil {
						return err
					}
				}
				return nil
			})
			stored := map[uint32]bool{}
			for _, u := range c.stored {
				stored[u] = true
			}
			mustTx(t, st, func(tx *Tx) error {
				if err := tx.InboxExpect(7, c.batch, make([]string, len(c.batch))); err != nil {
					return err
				}
				for _, u := range c.batch {
					_, dup, err := tx.InboxInsert(InboxMessage{UIDValidity: 7, UID: u, Raw: []byte("fetched"), Received: t0})
					if err != nil {
						return err
					}
					if dup != stored[u] {
						t.Errorf("uid %d: duplicate %v, want %v", u, dup, stored[u])
					}
				}
				return nil
			})
			var n int
			mustView(t, st, func(tx *Tx) error {
				for _, s := range []InboxStatus{InboxNew} {
					r, err := tx.InboxByStatus(s, 100)
					n += len(r)
					if err != nil {
						return err
					}
				}
				return nil
			})
			all := map[uint32]bool{}
			for _, u := range append(append([]uint32{}, c.stored...), c.batch...) {
				all[u] = true
			}
			if n != len(all) {
				t.Errorf("%d rows stored, want %d", n, len(all))
			}
		})
	}
}

// TestInboxExpectSeesQueued: a look-up finds the mails queued since the last one and
// not yet inserted (the look-up does not insert them first), by UID and by Message-ID:
// a mail met again after a second look-up is a duplicate, as it is without look-ups.
func TestInboxExpectSeesQueued(t *testing.T) {
	type mail struct {
		uid uint32
		id  string
	}
	for _, c := range []struct {
		name   string
		chunks [][]mail // each looked up, then inserted
	}{
		{"the same Message-ID", [][]mail{{{1, "<a@x>"}}, {{2, "<a@x>"}}}},
		{"the same UID", [][]mail{{{1, "<a@x>"}}, {{1, "<b@x>"}}}},
		{"the same UID, no Message-ID", [][]mail{{{1, ""}, {2, ""}}, {{2, ""}, {3, ""}}}},
		{"three look-ups", [][]mail{{{1, "<a@x>"}}, {{2, "<b@x>"}}, {{3, "<a@x>"}, {2, "<c@x>"}, {4, "<b@x>"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				ID  int64
				UID uint32
				Dup bool
			}
			run := func(expect bool) []result {
				st := openTest(t)
				var got []result
				mustTx(t, st, func(tx *Tx) error {
					for _, chunk := range c.chunks {
						if expect {
							var uids []uint32
							var ids []string
							for _, m := range chunk {
								uids, ids = append(uids, m.uid), append(ids, m.id)
							}
							if err := tx.InboxExpect(7, uids, ids); err != nil {
								return err
							}
						}
						for _, m := range chunk {
							row, dup, err := tx.InboxInsert(InboxMessage{UIDValidity: 7, UID: m.uid, MessageID: m.id, Raw: []byte("mail"), Received: t0})
							if err != nil {
								return err
							}
							got = append(got, result{row.ID, row.UID, dup})
						}
					}
					return nil
				})
				return got
			}
			want, got := run(false), run(true)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after look-ups: %+v\nwant %+v", got, want)
			}
		})
	}
}
