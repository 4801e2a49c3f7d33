package judge

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// No plain secret at rest (issue 14 item 8). A mail that gives someone a secret or a
// CONFIRM code is enqueued with a placeholder (store.SlotText) where the secret goes and
// the owner named in its row (outMail.slots); the sender fills it in just before the
// mail goes out (armSecrets) and the row keeps the placeholder. So the database holds
// the secret nowhere: not in the pending row while SMTP is down for hours, not in the
// copy kept once sent, not in a backup, in any encoding.
//
// Which secret goes in: the command that made one (JOIN, CONFIRM, NEWSECRET, REPLACE,
// CREATE, AddGM, CreateGame) stores its hash at once, as before, so the old secret stops
// counting at once, and holds the plain secret in memory (hold). At send time the held
// secret is used while it is still the owner's (its hash is the stored one); otherwise
// (the daemon restarted since, or a newer secret replaced it) a fresh secret is minted
// and its hash stored in the same transaction as the decision. Either way the mail
// carries a secret that works when it is sent.
//
// A crash between minting and sending loses nothing that matters: the minted secret was
// in no mail, and the retry mints another. A crash after the SMTP server took the mail
// and before it was recorded as sent (the outbox's Inflight) may have delivered it; the
// retry goes out with the same Message-ID (item 5), so a client may show either copy,
// and a fresh secret minted then is stored with store.KeyedHashKeeping: the copy's
// secret and the one before both work.

// heldSecrets are plain secrets minted in this process whose mails are not sent yet:
// memory only, forgotten once their mail is sent.
type heldSecrets struct {
	mu sync.Mutex
	m  map[store.Owner]string
}

// hold keeps plain, o's new secret, for o's mail and returns the placeholder to write in
// the mail where the secret goes.
func (j *Judge) hold(o store.Owner, plain string) string {
	j.held.mu.Lock()
	if j.held.m == nil {
		j.held.m = map[store.Owner]string{}
	}
	j.held.m[o] = plain
	j.held.mu.Unlock()
	return store.SlotText(o)
}

func (j *Judge) heldSecret(o store.Owner) (string, bool) {
	j.held.mu.Lock()
	defer j.held.mu.Unlock()
	s, ok := j.held.m[o]
	return s, ok
}

// forget drops the held secrets a sent mail carried (unless a newer one replaced them).
func (j *Judge) forget(values map[store.Owner]string) {
	j.held.mu.Lock()
	for o, v := range values {
		if j.held.m[o] == v {
			delete(j.held.m, o)
		}
	}
	j.held.mu.Unlock()
}

// voidSecret goes where the secret of an owner that is gone was to go (a JOIN replaced by
// a newer one, a player removed before the start): as long as a secret, never one.
const voidSecret = "VOID-VOID-VOID-VOID"

// armSecrets is m's raw with its secrets filled in, for this attempt only: the held
// secret of each slot's owner while it is still theirs, else a fresh one whose hash is
// stored first. It returns store.ErrNotFound when the mail is no longer pending (voided
// meanwhile), and stops sending when the database cannot be written (nothing is sent
// with a secret that was not recorded).
func (j *Judge) armSecrets(ctx context.Context, m store.OutboxMail) ([]byte, map[store.Owner]string, error) {
	if len(m.Slots) == 0 {
		return m.Raw, nil, nil
	}
	key := j.Store.SecretKey()
	var values map[store.Owner]string
	err := j.writeOrStop(ctx, func(tx *store.Tx) error {
		values = map[store.Owner]string{}
		cur, err := tx.OutboxGet(m.ID)
		if err != nil {
			return err
		}
		if cur.Status != store.OutboxPending {
			return store.ErrNotFound
		}
		for _, o := range m.Slots {
			h, err := tx.SecretHashOf(o)
			if errors.Is(err, store.ErrNotFound) {
				values[o] = voidSecret
				continue
			}
			if err != nil {
				return err
			}
			if s, ok := j.heldSecret(o); ok && store.CheckKeyed(key, h, s) {
				values[o] = s
				continue
			}
			plain, err := store.NewSecret()
			if err != nil {
				return err
			}
			hash := store.KeyedHash(key, plain)
			if m.Inflight > 0 || cur.Inflight > 0 {
				hash = store.KeyedHashKeeping(key, plain, h) // an earlier copy may have arrived
			}
			if err := tx.SetSecretHashOf(o, hash); err != nil {
				return err
			}
			values[o] = plain
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for o, v := range values {
		if v != voidSecret {
			j.hold(o, v) // a retry from this process sends the same secret
		}
	}
	raw, err := store.FillSlots(m.Raw, m.Slots, values)
	if err != nil {
		return nil, nil, err
	}
	j.Log.Debug("secrets put in at send time", "outbox", m.ID, "kind", m.Kind, "count", len(values))
	return raw, values, nil
}

// A received mail is stored as it came before it is judged (so a crash loses nothing),
// and its secrets are removed from the stored copy when it is judged; the database's
// write-ahead log still holds the first version until it is checkpointed and emptied
// (store.Scrub). That is done soon after: after a batch of intake (at most every 10 s,
// so a flood does not pay a checkpoint per batch) and at every tick. Only when something
// was removed: a judge that took no mail writes nothing (a damaged database is left as
// it is found).
type scrubState struct {
	mu   sync.Mutex
	due  bool
	last time.Time
}

// scrubLater notes that the log holds a received mail's secret.
func (j *Judge) scrubLater() {
	j.scrub.mu.Lock()
	j.scrub.due = true
	j.scrub.mu.Unlock()
}

// scrubDue reports whether the log still holds a received secret (for tests that wait
// for a settled judge).
func (j *Judge) scrubDue() bool {
	j.scrub.mu.Lock()
	defer j.scrub.mu.Unlock()
	return j.scrub.due
}

// scrubIfDue empties the log if it holds a received secret and the last scrub is at least
// minGap ago.
func (j *Judge) scrubIfDue(ctx context.Context, minGap time.Duration) {
	j.scrub.mu.Lock()
	defer j.scrub.mu.Unlock()
	if !j.scrub.due || minGap > 0 && time.Since(j.scrub.last) < minGap {
		return
	}
	if err := j.Store.Scrub(ctx); err != nil {
		j.Log.Warn("emptying the database log failed; tried again at the next tick", "err", err)
		return
	}
	j.scrub.due, j.scrub.last = false, time.Now()
}
