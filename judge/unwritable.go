package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// A database that cannot be written while the judge serves (a full disk, a file system
// remounted read-only, an I/O error) must not cost a player a sheet (issue 21 item 3:
// the sheet that failed to store was flagged done on the server and not read again until
// a restart, which then refused three newer sheets of its turn as late). So intake stops
// at once: the batch in hand is not recorded and not flagged, nothing after it is read,
// the log says so at error level with what to do, and the operator is mailed once. The
// judge then tries the database every UnwritableProbe; once a write commits it takes
// the same batch again, so every sheet is read in the order the mail server received
// it. If the database cannot be written for UnwritableExit, Serve stops with
// ErrUnwritable (rallyjudge serve exits non-zero). Damaged pages (ErrCorrupt) stop the
// judge at once, intake or clock alike: they do not mend themselves.

// damagedWhatToDo is what the operator does about damaged pages. A disk that fails its
// reads makes sound pages look damaged (SQLite says "malformed" when ext4 is shut down
// under it, TestDiskFaultsWhileServing): then the disk is checked first, and the judge
// started again checks the pages before it takes mail (store.CheckServing).
const damagedWhatToDo = "restore the last backup (docs/gamemasters.md, Backups); if the kernel logged I/O errors " +
	"for the disk (dmesg), check the disk first and start the judge again: it checks the pages before it takes mail"

// DefaultUnwritableExit is how long Serve waits for an unwritable database by default
// (the config's limits.unwritable_exit).
const DefaultUnwritableExit = 30 * time.Minute

// unwritable reports whether a batch failed because the database cannot be written (and
// not because its pages are damaged, which stops the judge).
func unwritable(errs []error) bool {
	for _, err := range errs {
		if err != nil && errors.Is(err, ErrUnwritable) && !errors.Is(err, ErrCorrupt) {
			return true
		}
	}
	return false
}

// halt is the judge's integrity stop: who (intake, the clock) found the database
// unwritable and waits for it. While anyone holds it, intake takes no mail, the clock
// resolves no turn (a deadline must not pass without the sheets intake could not
// record) and the sender sends nothing (it could not record what it sent). The first
// holder of an outage logs it at error level with what to do and mails the operator.
type halt struct {
	mu      sync.Mutex
	holders map[string]error
	resumed chan struct{} // closed when the last holder lets go
}

// haltWrites records that where (intake, the clock) found the database unwritable.
func (j *Judge) haltWrites(ctx context.Context, s Sender, where string, cause error) {
	j.halt.mu.Lock()
	first := len(j.halt.holders) == 0
	if j.halt.holders == nil {
		j.halt.holders = map[string]error{}
	}
	if first {
		j.halt.resumed = make(chan struct{})
	}
	j.halt.holders[where] = cause
	j.halt.mu.Unlock()
	if !first {
		return
	}
	j.Log.Error("THE DATABASE CANNOT BE WRITTEN: intake stopped; no mail is flagged done and no turn resolved until it can be. "+
		"Free disk space, make the file system writable again or check the disk; intake resumes by itself, "+
		"or the judge stops after the time limit (limits.unwritable_exit)",
		"found_by", where, "err", cause, "limit", j.UnwritableExit)
	j.tellOperator(ctx, s, "unwritable", cause)
}

// resumeWrites records that where's work went through again.
func (j *Judge) resumeWrites(where string) {
	j.halt.mu.Lock()
	defer j.halt.mu.Unlock()
	if _, ok := j.halt.holders[where]; !ok {
		return
	}
	delete(j.halt.holders, where)
	if len(j.halt.holders) == 0 {
		j.intakeFrom.Store(j.now().UnixNano()) // a deadline waits for intake from now (intakePast)
		close(j.halt.resumed)
		j.Log.Info("the database can be written again: intake resumes with the mail it could not record", "by", where)
	}
}

// halted returns, while the integrity stop holds, a channel closed when it ends
// (nil when it does not hold).
func (j *Judge) halted() (cause error, resumed <-chan struct{}) {
	j.halt.mu.Lock()
	defer j.halt.mu.Unlock()
	for _, err := range j.halt.holders {
		return err, j.halt.resumed
	}
	return nil, nil
}

// ioOutage reports whether the integrity stop holds for an I/O error: then pages that
// look damaged may only be unreadable (damagedWhatToDo), and are taken for the same
// outage, not for damage.
func (j *Judge) ioOutage() bool {
	j.halt.mu.Lock()
	defer j.halt.mu.Unlock()
	for _, err := range j.halt.holders {
		if store.IsIOError(err) {
			return true
		}
	}
	return false
}

// waitWritable waits, from start (when its caller first failed), until a probe of the
// database (sound pages and a write that commits) succeeds, and returns nil: the caller
// tries its work again. Past UnwritableExit it returns cause, marked ErrUnwritable;
// damaged pages return ErrCorrupt; the end of ctx returns ctx's error.
func (j *Judge) waitWritable(ctx context.Context, start time.Time, cause error) error {
	probe := j.UnwritableProbe
	if probe <= 0 {
		probe = 5 * time.Second
	}
	t := time.NewTicker(probe)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if time.Since(start) > j.UnwritableExit {
			j.Log.Error("THE DATABASE STILL CANNOT BE WRITTEN: the judge stops", "err", cause, "waited", time.Since(start).Round(time.Second))
			return j.corrupt(cause)
		}
		err := j.Store.Writable(ctx, j.now(), "intake resumes: the database can be written again")
		if err == nil {
			j.Log.Info("the database can be written again", "waited", time.Since(start).Round(time.Millisecond))
			return nil
		}
		if store.IsCorrupt(err) && !store.IsIOError(cause) {
			j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "err", err)
			return j.corrupt(err)
		}
		// after an I/O error the pages may only look damaged: a disk that fails its reads
		// shows them so (seen with ext4 shut down under the judge). Only a check of the
		// disk can tell; the judge waits, and checks the pages again when started.
		j.Log.Debug("the database still cannot be written", "err", err)
	}
}

// awaitWritable holds the integrity stop for intake, waits for the database to be
// writable again, then runs again (the batch that failed) and returns what it returns;
// again failing the same way, it waits once more (the time limit counts from the first
// failure). Past UnwritableExit, or when ctx ends, it returns the errors of the last
// try, marked ErrUnwritable (or ErrCorrupt), which stops Serve.
func (j *Judge) awaitWritable(ctx context.Context, s Sender, errs []error, again func() []error) []error {
	start := time.Now()
	for {
		j.haltWrites(ctx, s, "intake", firstErr(errs))
		if err := j.waitWritable(ctx, start, firstErr(errs)); err != nil {
			if ctx.Err() == nil {
				for i := range errs {
					errs[i] = err
				}
			}
			return errs // (Serve stops: the stop holds to the end)
		}
		errs = again()
		if !unwritable(errs) {
			j.resumeWrites("intake")
			return errs
		}
	}
}

// clockTick is the clock's round (Tick) under the integrity stop: while intake holds it
// the clock waits; a Tick that finds the database unwritable holds it too (one
// error-level line and one mail to the operator an outage, not a line every tick) and
// is tried again once a probe writes. It returns an error only when Serve must stop:
// damaged pages (ErrCorrupt), or a database unwritable past UnwritableExit
// (ErrUnwritable).
func (j *Judge) clockTick(ctx context.Context, s Sender) error {
	if _, resumed := j.halted(); resumed != nil {
		select { // intake cannot record mail: no deadline passes without it
		case <-resumed:
		case <-ctx.Done():
			return nil
		}
	}
	tick := func() error {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		defer cancel()
		_, err := j.Tick(wctx)
		return err
	}
	err := tick()
	if err != nil && store.IsUnwritable(err) && !store.IsCorrupt(err) {
		start := time.Now()
		for err != nil && store.IsUnwritable(err) && !store.IsCorrupt(err) {
			j.haltWrites(ctx, s, "clock", err)
			if werr := j.waitWritable(ctx, start, err); werr != nil {
				if ctx.Err() != nil {
					werr = nil
				}
				return werr // (Serve stops: the stop holds to the end)
			}
			err = tick()
		}
		j.resumeWrites("clock")
	}
	switch {
	case err == nil:
		return nil
	case store.IsCorrupt(err) && j.ioOutage():
		// intake holds the stop for an I/O error: the pages the clock read as damaged
		// are the same failing disk; the clock waits with intake
		j.Log.Debug("the clock read damaged pages during an I/O error", "err", err)
		return nil
	case store.IsCorrupt(err):
		j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "err", err)
		err = j.corrupt(err)
		j.tellOperator(ctx, s, "damaged", err)
		return err
	default:
		j.Log.Error("deadline check failed", "err", err)
		return nil
	}
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// tellOperator mails the operator, once per run, that the database is
// damaged or cannot be written. The mail goes straight to the SMTP server: the outbox
// is in the database that failed.
func (j *Judge) tellOperator(ctx context.Context, s Sender, what string, cause error) {
	if j.Operator == "" || s == nil || !mail.ValidAddress(j.Operator) {
		return
	}
	j.operatorMu.Lock()
	if j.operatorTold == nil {
		j.operatorTold = map[string]bool{}
	}
	// one mail a run: a disk failing with I/O errors is found by intake as an I/O error
	// and by the clock, at the same moment, as damaged pages; the log has both
	told := len(j.operatorTold) > 0
	j.operatorTold[what] = true
	j.operatorMu.Unlock()
	if told {
		return
	}
	text := "The judge's database cannot be written (" + errText(cause) + ").\n\n" +
		"Intake has stopped: no mail is flagged done on the mail server until the database can be\n" +
		"written again, and then the mail is read in the order the server received it. Free disk\n" +
		"space, make the file system writable again, or check the disk. If it cannot be written\n" +
		fmt.Sprintf("for %v the judge stops (limits.unwritable_exit).\n", j.UnwritableExit)
	subj := "rallyjudge: the database cannot be written; intake stopped"
	if what == "damaged" {
		text = "The judge's database is damaged (" + errText(cause) + ").\n\n" +
			"The judge has stopped taking mail and stopped; the mail since stays unflagged on the\n" +
			"mail server. Restore the last backup (docs/gamemasters.md, Backups) and start it again.\n\n" +
			"If the kernel logged I/O errors for the disk (dmesg), the pages may only look damaged:\n" +
			"check the disk first (fsck) and start the judge again; it checks the pages before it\n" +
			"takes mail, and says so if they are damaged.\n"
		subj = "rallyjudge: THE DATABASE IS DAMAGED; the judge stopped"
	}
	if what == "unsynced" {
		text = "The judge's database could not be put on disk (" + errText(cause) + ").\n\n" +
			"The judge has stopped taking mail and stopped. Nothing written since the disk last\n" +
			"took it is flagged done on the mail server or answered: that mail is read again once\n" +
			"the judge is started again. Check the disk first (dmesg, fsck), then start it again.\n"
		subj = "rallyjudge: the database could not be put on disk; the judge stopped"
	}
	now := j.now()
	raw, err := mail.Compose(mail.Outgoing{From: j.Address, FromName: j.Name, To: []string{j.Operator}, Subject: subj,
		MessageID: fmt.Sprintf("operator.%s.%d@%s", what, now.UnixNano(), j.domainOf()), Date: now, Version: Version,
		AutoSubmitted: "auto-generated", Text: text})
	if err == nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
		err = s.Send(sctx, j.Address, []string{j.Operator}, raw)
		cancel()
	}
	if err != nil {
		j.Log.Error("the operator could not be told", "err", err)
	}
}
