package judge

import (
	"context"
	"errors"
	"fmt"
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

// awaitWritable waits for the database to be writable again, then runs again (the
// batch that failed) and returns what it returns; again failing the same way, it waits
// once more. Past UnwritableExit, or when ctx ends, it returns the errors of the last
// try, marked ErrUnwritable, which stops Serve.
func (j *Judge) awaitWritable(ctx context.Context, s Sender, errs []error, again func() []error) []error {
	first := firstErr(errs)
	start := time.Now()
	j.Log.Error("THE DATABASE CANNOT BE WRITTEN: intake stopped; no mail is flagged done until it can be. "+
		"Free disk space, make the file system writable again or check the disk; intake resumes by itself, "+
		"or the judge stops after the time limit (limits.unwritable_exit)",
		"err", first, "limit", j.UnwritableExit)
	j.tellOperator(ctx, s, "unwritable", first)
	probe := j.UnwritableProbe
	if probe <= 0 {
		probe = 5 * time.Second
	}
	t := time.NewTicker(probe)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return errs
		case <-t.C:
		}
		if time.Since(start) > j.UnwritableExit {
			j.Log.Error("THE DATABASE STILL CANNOT BE WRITTEN: the judge stops", "err", firstErr(errs), "waited", time.Since(start).Round(time.Second))
			return errs
		}
		if err := j.Store.Writable(ctx, j.now(), "intake resumes: the database can be written again"); err != nil {
			if store.IsCorrupt(err) {
				j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; restore the last backup", "err", err)
				err = j.corrupt(err)
				for i := range errs {
					errs[i] = err
				}
				return errs
			}
			j.Log.Debug("the database still cannot be written", "err", err)
			continue
		}
		j.Log.Info("the database can be written again: intake resumes with the mail it could not record",
			"waited", time.Since(start).Round(time.Millisecond))
		errs = again()
		if !unwritable(errs) {
			return errs
		}
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

// tellOperator mails the operator, once per run and trouble, that the database is
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
	told := j.operatorTold[what]
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
			"mail server. Restore the last backup (docs/gamemasters.md, Backups) and start it again.\n"
		subj = "rallyjudge: THE DATABASE IS DAMAGED; the judge stopped"
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
