package judge

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// HandleBatch is the fetcher's batch handler (mail.BatchHandler): the messages of one
// FETCH take the same path as HandleMessage's, but in two transactions for the whole
// batch instead of two per mail — one fsync per batch, which is what lets intake keep
// pace with the IMAP server (issue 14: one fsync per mail held it to a few hundred mails
// a second). First every raw message is stored in the inbox (with the server's receive
// time); then each is judged inside a savepoint of one transaction, so that a mail whose
// processing fails is rolled back alone and recorded as failed. Only after the commit do
// the acknowledgements count, turns whose programs are all in get resolved, and the
// fetcher flag the mail on the server.
func (j *Judge) HandleBatch(ctx context.Context, uidvalidity uint32, msgs []mail.Fetched) []error {
	errs := make([]error, len(msgs))
	type item struct {
		row  store.InboxMessage
		msg  *mail.Message
		perr error
		skip bool
		f    fate
		note string
		game int64
		fail bool
	}
	items := make([]item, len(msgs))
	now := j.now()
	for i, m := range msgs {
		it := &items[i]
		it.msg, it.perr = j.extract(m.Raw)
		received := now
		if !m.Received.IsZero() {
			received = m.Received.UTC().Truncate(1e9)
		}
		it.row = store.InboxMessage{UIDValidity: uidvalidity, UID: m.UID, Raw: m.Raw, Size: int64(len(m.Raw)), Received: received}
		if it.msg != nil {
			it.row.MessageID, it.row.From, it.row.Subject = it.msg.MessageID, it.msg.From, clip(redactText(it.msg.Subject), 200)
		}
	}
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		seen := map[int64]bool{}
		for i := range items {
			row, dup, err := tx.InboxInsert(items[i].row)
			if err != nil {
				return fmt.Errorf("store inbox uid %d/%d: %w", uidvalidity, items[i].row.UID, err)
			}
			items[i].row = row
			// seen before, or twice in this batch (the same Message-ID): one effect
			items[i].skip = dup && row.Status != store.InboxNew || seen[row.ID]
			seen[row.ID] = true
		}
		return nil
	}); err != nil {
		if store.IsCorrupt(err) {
			j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; restore the last backup", "err", err)
		}
		err = j.corrupt(err)
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	rolledBack := false
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		rolledBack = false
		v := &views{} // what the sheets read of their games, once for the batch
		for i := range items {
			it := &items[i]
			it.f, it.note, it.game, it.fail = fate{}, "", 0, false
			if it.skip {
				continue
			}
			err := tx.Savepoint(func() error {
				status, note, gid, err := j.judgeMessage(tx, v, it.row, it.msg, it.perr, &it.f)
				if err != nil {
					return err
				}
				it.note, it.game = note, gid
				return j.finishInbox(tx, it.row, it.msg, status, note)
			})
			if err == nil {
				continue
			}
			if store.IsCorrupt(err) {
				return err
			}
			rolledBack = true
			v.reset() // it may have read what its rollback undid
			it.f, it.game, it.fail = fate{}, 0, true
			j.Log.Error("processing a message failed", "inbox", it.row.ID, "err", err)
			if err := j.failInbox(tx, it.row, it.msg, err.Error()); err != nil {
				return err
			}
		}
		return nil
	})
	if rolledBack || err != nil {
		j.folds.reset() // a rolled-back mail may have folded versions never committed
	}
	if err != nil {
		if store.IsCorrupt(err) {
			j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; restore the last backup", "err", err)
			err = j.corrupt(err)
			for i := range errs {
				errs[i] = err
			}
			return errs
		}
		// the batch could not commit (a full disk): take the mails one at a time, each
		// recorded on its own (they are stored; processStored judges them again)
		j.Log.Warn("a batch of mails could not commit; taking them one at a time", "count", len(items), "err", err)
		for i := range items {
			if !items[i].skip {
				errs[i] = j.processStored(ctx, items[i].row, items[i].msg, items[i].perr)
			}
		}
		return errs
	}
	var games []int64
	for i := range items {
		it := &items[i]
		if it.skip || it.fail {
			continue
		}
		j.logFate(it.row, it.msg, it.f, it.note)
		if it.game != 0 && !slices.Contains(games, it.game) {
			games = append(games, it.game)
		}
	}
	if len(games) > 0 && j.stopAt("after-sheet-commit") {
		return errs
	}
	for _, g := range games {
		if _, err := j.ResolveIfReady(ctx, g); err != nil && !errors.Is(err, context.Canceled) {
			j.Log.Error("resolving a turn failed", "game", g, "err", err)
		}
	}
	return errs
}
