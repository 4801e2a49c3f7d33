package store

import (
	"errors"
	"fmt"
)

// Pictures drawn after the commit (issue 24 item 3, migration 014): a report is stored
// in the outbox with the turn, composed without its pictures, and marked as awaiting
// them; the sender passes a marked mail by (DueToSend) until CompletePictures puts the
// finished mail in its place and removes the mark, in one transaction.

// PictureJob is an outbox mail awaiting its pictures: Job is what the judge wrote to
// draw them (opaque to the store).
type PictureJob struct {
	OutboxID int64
	Job      []byte
}

// AwaitPictures marks the outbox mail as awaiting its pictures; job says what to draw.
func (t *Tx) AwaitPictures(outboxID int64, job []byte) error {
	if len(job) == 0 {
		return fmt.Errorf("store: outbox %d: await pictures: empty job", outboxID)
	}
	if _, err := t.exec(`INSERT INTO outbox_pictures (outbox_id, job) VALUES (?, ?) ON CONFLICT (outbox_id) DO NOTHING`,
		outboxID, string(job)); err != nil {
		return fmt.Errorf("store: outbox %d: await pictures: %w", outboxID, err)
	}
	return nil
}

// PictureJobs lists up to limit mails awaiting their pictures, oldest first.
func (t *Tx) PictureJobs(limit int) ([]PictureJob, error) {
	return queryAll(t, "picture jobs", func(r scanner) (PictureJob, error) {
		var p PictureJob
		var job string
		err := r.Scan(&p.OutboxID, &job)
		p.Job = []byte(job)
		return p, err
	}, `SELECT outbox_id, job FROM outbox_pictures ORDER BY outbox_id LIMIT ?`, limit)
}

// CompletePictures ends the wait of an outbox mail for its pictures: raw, the mail
// with them, replaces the stored one while the mail is pending and was never tried
// (nil raw keeps the mail as stored: it goes without pictures). It reports whether the
// mail was still waiting; a mail voided meanwhile only loses its mark.
func (t *Tx) CompletePictures(outboxID int64, raw []byte) (bool, error) {
	what := fmt.Sprintf("outbox %d: complete pictures", outboxID)
	res, err := t.exec(`DELETE FROM outbox_pictures WHERE outbox_id = ?`, outboxID)
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // completed already (another run of the worker)
	}
	if raw == nil {
		return true, nil
	}
	err = t.updateOne(what, `UPDATE outbox SET raw = ? WHERE id = ? AND status = 'pending' AND inflight = 0 AND void_at IS NULL`, raw, outboxID)
	if errors.Is(err, ErrNotFound) {
		return true, nil // voided or given up meanwhile: nothing to finish
	}
	if err != nil {
		return false, err
	}
	return true, nil
}
