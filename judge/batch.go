package judge

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// HandleBatch is the fetcher's batch handler (mail.BatchHandler): the messages of one
// FETCH take the same path as HandleMessage's, but in one transaction for the whole
// batch instead of two per mail — one fsync per batch, which is what lets intake keep
// pace with the IMAP server (issue 14: one fsync per mail held it to a few hundred mails
// a second). Each mail is stored in the inbox (with the server's receive time) and
// judged inside a savepoint of that transaction, so that a mail whose processing fails
// is rolled back alone and kept as it came, recorded as failed. Only after the commit
// do the acknowledgements count, turns whose programs are all in get resolved, and the
// fetcher flag the mail on the server: a crash before the commit leaves nothing stored
// and every mail of the batch unflagged, to be fetched again.
//
// What needs no database — reading the MIME, the sheet, the copy of the mail to keep
// with its secrets removed — is done on goroutines of their own (batchReaders), a few
// mails ahead of the writer, so that on a machine with two cores it costs the writer
// nothing (issue 14, item 10). The writer still takes the mails one after another in UID
// order.
func (j *Judge) HandleBatch(ctx context.Context, uidvalidity uint32, msgs []mail.Fetched) []error {
	return j.handleBatch(ctx, "", uidvalidity, msgs, false)
}

// handleBatch is HandleBatch; with a mailbox, the batch's transaction records the
// mailbox position too (its last UID), as Serve's savePosition would in a commit (and
// an fsync) of its own. With syncLater the commit does not wait for the disk
// (store.TxSyncLater): the caller's fetcher puts it there before it marks the mail
// done (gateMarks), and the sender before it sends the replies (DrainOutbox).
func (j *Judge) handleBatch(ctx context.Context, mailbox string, uidvalidity uint32, msgs []mail.Fetched, syncLater bool) []error {
	errs := make([]error, len(msgs))
	rb, ok := prepared(uidvalidity, msgs)
	if !ok {
		rb = j.startReading(uidvalidity, msgs)
	}
	items := rb.items
	now := j.now()
	await := func(i int) { // the mails up to i are read
		from := rb.nReady
		rb.await(i)
		for k := from; k < rb.nReady; k++ {
			if items[k].row.Received.IsZero() {
				items[k].row.Received = now // the server gave no receive time
			}
		}
	}

	// First every mail is judged straight in the transaction; only when one fails is the
	// batch judged again, each mail in a savepoint of its own so that it is rolled back
	// alone. A savepoint copies every page a mail touches before it writes it: most
	// batches have no failure, and paid that for nothing (issue 14, intake speed).
	var v *views
	var memo map[any]any // the committed transaction's memo (store.Tx.Memo)
	rolledBack := false
	var err error
	txFn := j.Store.Tx
	if syncLater {
		txFn = j.Store.TxSyncLater
	}
	for _, apart := range []bool{false, true} {
		err = txFn(ctx, func(tx *store.Tx) error {
			rolledBack = false
			v = &views{} // what the sheets read of their games, once for the batch
			if !apart {
				v.acks = newAckQueue(j, len(items))
				defer v.acks.stop()
			}
			expected := 0 // the items looked up in the inbox so far (expectInbox)
			for i := range items {
				await(i)
				if !apart && i == expected {
					// the next few, once read: the first few alone, so that the writer
					// starts soon
					expected = min(len(items), i+min(64, 8*(i+1)))
					await(expected - 1)
					if err := expectInbox(tx, uidvalidity, items[i:expected]); err != nil {
						if store.IsBroken(err) {
							return err
						}
						j.Log.Info("looking up the batch's mails in the inbox failed; judging the batch again, one savepoint a mail", "err", err)
						return errTakeApart
					}
				}
				it := &items[i]
				it.f, it.note, it.game, it.fail, it.skip = fate{}, "", 0, false, false
				var err error
				if apart {
					err = tx.Savepoint(func() error { return j.judgeItem(tx, v, uidvalidity, it) })
				} else if err = j.judgeItem(tx, v, uidvalidity, it); err != nil && !store.IsBroken(err) {
					j.Log.Info("a mail of the batch failed; judging the batch again, one savepoint a mail", "uid", it.row.UID, "err", err)
					return errTakeApart
				}
				it.rd = nil // a Reading is judged once: judging fills in the sheet's turn
				if err == nil {
					continue
				}
				if store.IsBroken(err) { // damaged or unwritable: the whole batch waits (serve.go)
					return err
				}
				rolledBack = true
				v.reset() // it may have read what its rollback undid
				it.f, it.game, it.fail = fate{}, 0, true
				j.Log.Error("processing a message failed", "inbox", it.stored.ID, "uid", it.row.UID, "err", err)
				// kept to be judged again by Recover once what broke is mended, its secrets
				// replaced by markers with their proofs (failed.go)
				stored, _, ierr := tx.InboxInsert(it.row)
				if ierr != nil {
					return fmt.Errorf("store inbox uid %d/%d: %w", uidvalidity, it.row.UID, ierr)
				}
				it.stored = stored
				if err := j.failInbox(tx, stored, it.msg, err.Error()); err != nil {
					return err
				}
			}
			if v.acks != nil {
				// the sheets and audit entries the batch queued (store/later.go), then its
				// acknowledgements
				if err := tx.Flush(); err != nil {
					if store.IsBroken(err) {
						return err
					}
					j.Log.Info("a row of the batch could not be stored; judging the batch again, one savepoint a mail", "err", err)
					return errTakeApart
				}
				if err := v.acks.flush(j, tx); err != nil {
					if store.IsBroken(err) {
						return err
					}
					j.Log.Info("an acknowledgement of the batch failed; judging the batch again, one savepoint a mail", "err", err)
					return errTakeApart
				}
			}
			memo = tx.Memo()
			if mailbox != "" && len(items) > 0 {
				return j.positionIn(tx, mailbox, uidvalidity, items[len(items)-1].row.UID)
			}
			return nil
		})
		if !errors.Is(err, errTakeApart) {
			break
		}
		// only the items already read: the reading-ahead goroutine may still be writing
		// the others (a data race), whose Readings nothing has judged yet
		for i := range rb.nReady {
			items[i].rd = nil
		}
	}
	await(len(items) - 1)
	if !rolledBack && err == nil {
		j.seatFolds.publish(memo) // the folds the batch made are the committed ones now
	}
	if err != nil {
		if store.IsBroken(err) {
			// damaged, or not writable (a full disk, a read-only file system, an I/O
			// error): no mail of the batch is recorded, none is flagged done, and Serve
			// takes the batch again, in the order the server received it, once the
			// database can be written (issue 21 item 3)
			return j.batchBroken(err, errs)
		}
		// the batch could not commit: store the mails as they came, then take them one at
		// a time, each recorded on its own
		j.Log.Warn("a batch of mails could not commit; taking them one at a time", "count", len(items), "err", err)
		return j.storeThenJudge(ctx, uidvalidity, items, errs)
	}
	var games []int64
	for i := range items {
		it := &items[i]
		if it.skip || it.fail {
			continue
		}
		j.logFate(it.stored, it.msg, it.f, it.note)
		if it.game != 0 && !slices.Contains(games, it.game) {
			games = append(games, it.game)
		}
	}
	for _, g := range games {
		j.ready.mark(g) // unmarked once resolved or found not ready (readywatch.go)
	}
	if len(games) > 0 && j.stopAt("after-sheet-commit") {
		return errs
	}
	if j.resolveOnClock { // several judges: the marked games go to the clock (shared.go)
		return errs
	}
	for _, g := range games {
		if _, err := j.ResolveIfReady(ctx, g); err != nil {
			if !errors.Is(err, context.Canceled) && !errors.Is(err, errGameBusy) {
				j.Log.Error("resolving a turn failed", "game", g, "err", err)
			}
			continue
		}
		j.ready.unmark(g)
	}
	return errs
}

// expectInbox looks up which of the mails items the inbox holds already, so that the
// others are queued and inserted several to a statement (store.Tx.InboxExpect).
func expectInbox(tx *store.Tx, uidvalidity uint32, items []batchItem) error {
	uids := make([]uint32, len(items))
	ids := make([]string, len(items))
	for i := range items {
		uids[i], ids[i] = items[i].row.UID, items[i].row.MessageID
	}
	return tx.InboxExpect(uidvalidity, uids, ids)
}

// errTakeApart rolls back a batch judged without savepoints in which a mail failed: it
// is judged again, one savepoint a mail.
var errTakeApart = errors.New("a mail of the batch failed")

// judgeItem stores one mail of a batch in the inbox and judges it, unless it was seen
// before.
func (j *Judge) judgeItem(tx *store.Tx, v *views, uidvalidity uint32, it *batchItem) error {
	row := it.row
	if it.kept != nil {
		// stored with its secrets removed from the start: for a mail judged in this
		// transaction the secret never reaches the database file (item 8)
		row.Raw = it.kept
	}
	// Stored with the outcome most mail has, an accepted sheet, so that most need no
	// second write to record it (InboxSetStatus rewrote the row and its status index:
	// a tenth of the writer's time a mail, issue 14 item 10). Nothing reads the status
	// before the commit but the look-up of a duplicate, which the judging below
	// settles; should it fail, the transaction or the mail's savepoint is rolled back
	// with the row.
	row.Status, row.Note, row.Updated = store.InboxProcessed, noteAccepted, j.now()
	stored, dup, err := tx.InboxInsert(row)
	if err != nil {
		return fmt.Errorf("store inbox uid %d/%d: %w", uidvalidity, row.UID, err)
	}
	if !dup {
		stored.Status, stored.Note = store.InboxNew, "" // as it is judged: not yet handled
	}
	it.stored = stored
	if dup && stored.Status != store.InboxNew {
		it.skip = true // seen before, or twice in this batch (the same Message-ID): one effect
		return nil
	}
	status, note, gid, err := j.judgeMessage(tx, v, stored, it.msg, it.perr, it.rd, &it.f)
	if err != nil {
		return err
	}
	it.note, it.game = note, gid
	if !dup {
		if status == store.InboxProcessed && note == noteAccepted {
			return nil // stored so
		}
		return tx.InboxSetStatus(stored.ID, status, note, j.now())
	}
	// stored earlier as it came (a batch that could not commit): remove its secrets now
	return j.finishInbox(tx, stored, it.msg, status, note)
}

// batchItem is one mail of a batch: what was read of it before the transaction, and
// what became of it.
type batchItem struct {
	// read ahead (read): the row to store as the mail came, the mail, the sheet or
	// commands, and the mail with its secrets removed (nil when it carried none)
	row  store.InboxMessage
	msg  *mail.Message
	perr error
	rd   *Reading
	kept []byte
	// judged
	stored store.InboxMessage
	skip   bool
	f      fate
	note   string
	game   int64
	fail   bool
}

// read does for one mail what needs no database: the MIME, the sheet or commands
// (Read), the copy to keep (redactInbound). It must not touch the judge's state: it runs
// beside the writer.
func (it *batchItem) read(j *Judge, uidvalidity uint32, m mail.Fetched) {
	it.msg, it.perr = j.extract(m.Raw)
	var received time.Time // the server's receive time; when it gave none, the writer's now
	if !m.Received.IsZero() {
		received = m.Received.UTC().Truncate(time.Second)
	}
	it.row = store.InboxMessage{UIDValidity: uidvalidity, UID: m.UID, Raw: m.Raw, Size: int64(len(m.Raw)), Received: received}
	if it.msg == nil {
		return
	}
	it.row.MessageID, it.row.From, it.row.Subject = it.msg.MessageID, it.msg.From, clip(redactText(it.msg.Subject), 200)
	if it.perr == nil {
		it.rd = Read(it.msg, j.sheetReader())
		it.rd.readAhead() // the move too, here beside the writer (hosted.go)
		if !j.noCheckAhead {
			it.rd.checkMoveAhead(&j.positions, it.msg) // and checked, when the position is known (movesahead.go)
		}
		it.rd.knowAhead(j.verified.key) // what judging works out from the mail alone (intake.go)
	}
	if r, ok := redactInbound(m.Raw, it.msg.Text); ok {
		it.kept = r
	}
}

// storeThenJudge is the way of a batch whose transaction could not commit: every mail is
// stored as it came in a transaction of its own kind, then judged alone (processStored),
// so that one that cannot be written does not hold up the others.
func (j *Judge) storeThenJudge(ctx context.Context, uidvalidity uint32, items []batchItem, errs []error) []error {
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		for i := range items {
			row, dup, err := tx.InboxInsert(items[i].row)
			if err != nil {
				return fmt.Errorf("store inbox uid %d/%d: %w", uidvalidity, items[i].row.UID, err)
			}
			items[i].stored = row
			items[i].skip = dup && row.Status != store.InboxNew
		}
		return nil
	}); err != nil {
		if store.IsBroken(err) {
			return j.batchBroken(err, errs)
		}
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	seen := map[int64]bool{}
	for i := range items {
		it := &items[i]
		if it.skip || seen[it.stored.ID] {
			continue
		}
		seen[it.stored.ID] = true
		errs[i] = j.processStored(ctx, it.stored, it.msg, it.perr)
	}
	return errs
}

// batchBroken fails every mail of a batch on a damaged database (ErrCorrupt) or one that
// cannot be written (ErrUnwritable): none is flagged done on the server.
func (j *Judge) batchBroken(err error, errs []error) []error {
	if store.IsCorrupt(err) {
		j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "err", err)
	}
	err = j.corrupt(err)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// ackQueue composes a batch's acknowledgements on goroutines of their own while the
// writer judges the next mails: composing the MIME (go-message) needs nothing of the
// database, and was a sixth of the writer's time a mail (issue 14, item 10). flush
// stores them, in the order they were made, in the batch's transaction before it
// commits, so a mail's acknowledgement still commits with it or not at all. Nothing in
// a batch reads an acknowledgement back from the outbox (mayReply counts rejections and
// command answers only), so storing it a few mails later changes nothing the batch
// decides; a batch judged one savepoint a mail stores each at once (enqueue).
//
// The writer never waits to hand a mail over: the queue holds a whole batch. With a
// queue of 256, a batch of 500 left the writer waiting for the composer, then for a
// core to run on once it could go on: the writer is the one part of intake that cannot
// be shared, and spent a fifth of its time so (issue 24 item 7). Two composers share
// the work where there are two cores.
type ackQueue struct {
	jobs    chan *composed
	wg      sync.WaitGroup
	list    []*composed
	stopped bool
}

// composed is one acknowledgement: the mail, when it was made, and its bytes.
type composed struct {
	m   outMail
	now time.Time
	raw []byte
	err error
}

// make composes c, its text rendered first when it is to be (outMail.render).
func (c *composed) make(j *Judge) {
	if c.m.render != nil {
		text, err := c.m.render()
		if err != nil {
			c.err = err
			return
		}
		c.m.text, c.m.render = redactText(text+c.m.text), nil
	}
	c.raw, c.err = j.compose(c.m, c.now)
}

// ackComposers is how many goroutines compose a batch's acknowledgements (at most
// GOMAXPROCS).
const ackComposers = 2

// newAckQueue starts the composers of a batch of n mails.
func newAckQueue(j *Judge, n int) *ackQueue {
	q := &ackQueue{jobs: make(chan *composed, max(n, 1))}
	for range min(ackComposers, runtime.GOMAXPROCS(0)) {
		q.wg.Add(1)
		go func() {
			defer q.wg.Done()
			for c := range q.jobs {
				c.make(j)
			}
		}()
	}
	return q
}

func (q *ackQueue) add(c *composed) {
	q.list = append(q.list, c)
	q.jobs <- c // room for a mail each: a send past them waits for a composer
}

// stop ends the composing goroutines once they have composed every mail added.
func (q *ackQueue) stop() {
	if !q.stopped {
		q.stopped = true
		close(q.jobs)
		q.wg.Wait()
	}
}

// flush stores every acknowledgement composed, in the order they were added, several
// to a statement (store.EnqueueAll: a statement each cost more than their rows).
func (q *ackQueue) flush(j *Judge, tx *store.Tx) error {
	q.stop()
	rows := make([]store.OutboxMail, 0, len(q.list))
	for _, c := range q.list {
		if c.err != nil {
			return c.err
		}
		rows = append(rows, j.outboxRow(c.m, c.raw, c.now))
	}
	if err := tx.EnqueueAll(rows); err != nil {
		return err
	}
	q.list = nil
	return nil
}
