package store

import (
	"fmt"
	"time"
)

// Retention is how long rows that only serve the daemon's own bookkeeping are kept
// (docs/gamemasters.md, "What is kept and for how long"). The game's record — turns,
// orders, the mail about a game — is kept for good.
type Retention struct {
	AuthFailures time.Duration // identity failures, for rate limiting
	Rejected     time.Duration // inbox rows of mail that was not taken
	InboxRaw     time.Duration // the raw bytes of mail that was taken (what was read is kept as orders)
	OutboxOther  time.Duration // sent or failed mail not about a game (replies, notices to strangers)
}

// DefaultRetention keeps a week of identity failures and 30 days of the rest.
func DefaultRetention() Retention {
	return Retention{AuthFailures: 7 * 24 * time.Hour, Rejected: 30 * 24 * time.Hour,
		InboxRaw: 30 * 24 * time.Hour, OutboxOther: 30 * 24 * time.Hour}
}

// Pruned counts what Prune removed.
type Pruned struct {
	AuthFailures, Rejected, InboxRaw, Outbox int64
	GameChanges                              int64 // the feed of migration 013, kept a day
}

// Prune removes what r says is no longer kept, as of now. Inbox rows of mail that was
// taken stay (their Message-ID keeps a mail offered again from having a second effect);
// only their raw bytes go.
func (t *Tx) Prune(now time.Time, r Retention) (Pruned, error) {
	var p Pruned
	var err error
	if p.AuthFailures, err = t.PruneAuthFailures(now.Add(-r.AuthFailures)); err != nil {
		return p, err
	}
	steps := []struct {
		n    *int64
		q    string
		d    time.Duration
		args []any
	}{
		{&p.Rejected, `DELETE FROM inbox WHERE status = 'rejected' AND updated_at < ?
			AND id NOT IN (SELECT inbox_id FROM orders WHERE inbox_id IS NOT NULL)`, r.Rejected, nil},
		{&p.InboxRaw, `UPDATE inbox SET raw = ? WHERE status = 'processed' AND updated_at < ? AND length(raw) > 0`, r.InboxRaw, []any{[]byte{}}},
		{&p.Outbox, `DELETE FROM outbox WHERE game_id IS NULL AND status != 'pending' AND created_at < ?`, r.OutboxOther, nil},
		// A day: the judge reads the feed every tick; one that finds its place gone
		// reads every game again.
		{&p.GameChanges, `DELETE FROM game_changes WHERE at < ?`, 24 * time.Hour, nil},
	}
	for _, s := range steps {
		res, err := t.exec(s.q, append(s.args, fmtTime(now.Add(-s.d)))...)
		if err != nil {
			return p, fmt.Errorf("store: prune: %w", err)
		}
		*s.n, _ = res.RowsAffected()
	}
	return p, nil
}
