package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// OutboxStatus is where an outgoing mail is.
type OutboxStatus string

// The outbox statuses.
const (
	OutboxPending OutboxStatus = "pending" // waiting for its next attempt
	OutboxSent    OutboxStatus = "sent"    // the SMTP server accepted it
	OutboxFailed  OutboxStatus = "failed"  // given up: a permanent error or too many attempts
)

// RetryPolicy is the outbox's exponential backoff: after the k-th failed
// attempt the next is Base·2^(k-1) later, never more than Cap; after
// MaxAttempts failed attempts the mail is failed.
type RetryPolicy struct {
	Base        time.Duration
	Cap         time.Duration
	MaxAttempts int
}

// DefaultRetry waits 1m, 2m, 4m … up to 1h between attempts and gives up after
// 20 attempts (about 14 hours).
func DefaultRetry() RetryPolicy {
	return RetryPolicy{Base: time.Minute, Cap: time.Hour, MaxAttempts: 20}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetry()
	if p.Base <= 0 {
		p.Base = d.Base
	}
	if p.Cap <= 0 {
		p.Cap = d.Cap
	}
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = d.MaxAttempts
	}
	return p
}

// Delay is the wait after the attempts-th failed attempt (attempts ≥ 1).
func (p RetryPolicy) Delay(attempts int) time.Duration {
	d := p.Base
	for i := 1; i < attempts; i++ {
		d *= 2
		if d >= p.Cap {
			return p.Cap
		}
	}
	return min(d, p.Cap)
}

// OutboxMail is one outgoing mail. Raw is the complete message, headers and
// all, and carries MessageID in its Message-ID header: the same bytes go out on
// every attempt, so a receiver can tell a resend from a new mail.
type OutboxMail struct {
	ID          int64
	MessageID   string // unique; enqueuing the same Message-ID twice stores it once
	To          []string
	From        string
	Subject     string
	Raw         []byte
	Kind        string // what it is: "ack", "report", "reject", "gm-notice" …
	GameID      int64  // 0 when not about a game
	Turn        int    // with GameID; -1 when not about a turn
	Status      OutboxStatus
	Attempts    int
	NextAttempt time.Time
	LastError   string
	Created     time.Time
	Sent        time.Time
	// Inflight counts attempts handed to SMTP whose outcome was never recorded: a
	// crash mid-send. A mail with Inflight > 0 may already have been delivered.
	Inflight int
	// Slots are the secrets the mail carries, by owner (secretslots.go): Raw holds a
	// placeholder (SlotText) for each, filled in at send time and never stored.
	Slots []Owner
}

const outboxColumns = `id, message_id, to_addrs, from_addr, subject, raw, kind, game_id, turn, status,
	attempts, next_attempt_at, last_error, created_at, sent_at, inflight, secret_slots`

// Enqueue stores a mail to be sent, due at once (at m.Created). When a mail
// with the same Message-ID is already there it is returned with dup true and
// nothing changes, so a deterministic Message-ID makes enqueuing idempotent.
func (t *Tx) Enqueue(m OutboxMail) (OutboxMail, bool, error) {
	what := fmt.Sprintf("enqueue %s", m.MessageID)
	args, err := enqueueArgs(nil, &m)
	if err != nil {
		return OutboxMail{}, false, err
	}
	// One statement for the usual case, a new Message-ID; the mail already there is read
	// only when the insert did nothing (issue 14: reading it first, for every mail the
	// judge answers, cost intake a query a mail).
	id, inserted, err := t.insertNew(enqueueInsert+enqueueRow+enqueueConflict, args...)
	if err != nil {
		return OutboxMail{}, false, fmt.Errorf("store: %s: %w", what, err)
	}
	if !inserted {
		old, err := scanOutbox(t.queryRow(`SELECT `+outboxColumns+` FROM outbox WHERE message_id = ?`, m.MessageID))
		if err != nil {
			return OutboxMail{}, false, fmt.Errorf("store: %s: %w", what, err)
		}
		return old, true, nil
	}
	m.ID = id
	return m, false, nil
}

// The statement that enqueues: its head, one row's values, and what a Message-ID
// already there does (nothing).
const (
	enqueueInsert = `INSERT INTO outbox (message_id, to_addrs, from_addr, subject, raw, kind, game_id, turn,
		status, attempts, next_attempt_at, last_error, created_at, secret_slots) VALUES `
	enqueueRow      = `(?,?,?,?,?,?,?,?,'pending',0,?,'',?,?)` // as enqueueArgs leaves the mail
	enqueueConflict = ` ON CONFLICT (message_id) DO NOTHING`
	enqueueCols     = 11 // the values enqueueArgs gives a row
)

// enqueueArgs checks m and completes it as Enqueue stores it (status pending, due at
// its creation), and appends the values of its row to args.
func enqueueArgs(args []any, m *OutboxMail) ([]any, error) {
	// what names the mail in errors (made only for one: a batch enqueues thousands)
	what := func() string { return "enqueue " + m.MessageID }
	if m.Created.IsZero() {
		return nil, needTime(what(), "created", m.Created)
	}
	if m.MessageID == "" || len(m.To) == 0 || m.From == "" || len(m.Raw) == 0 || m.Kind == "" {
		return nil, fmt.Errorf("store: enqueue %q: message id, to, from, raw and kind are needed", m.Subject)
	}
	to, err := json.Marshal(m.To)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what(), err)
	}
	var turn any
	if m.GameID != 0 && m.Turn >= 0 {
		turn = int64(m.Turn) // not an int, which database/sql takes only through reflection
	}
	m.Status, m.Attempts, m.LastError, m.Sent = OutboxPending, 0, "", time.Time{}
	if m.NextAttempt.IsZero() {
		m.NextAttempt = m.Created
	}
	slots, err := slotsText(m.Slots, m.Raw)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what(), err)
	}
	// status, attempts and last error are the row's (enqueueRow): pending, 0, ""
	return append(args, m.MessageID, string(to), m.From, m.Subject, m.Raw, m.Kind, nullID(m.GameID), turn,
		fmtTime(m.NextAttempt), fmtTime(m.Created), slots), nil
}

// enqueueChunks are the numbers of rows EnqueueAll puts in one statement, largest
// first: a few fixed sizes, so that a few prepared statements serve any count.
var enqueueChunks = [...]int{64, 16, 4, 1}

// EnqueueAll stores mails to be sent, in order, as Enqueue does each, but several
// rows to a statement: a batch of mail stores its acknowledgements so (issue 14, item
// 10: a statement a mail cost the writer more than the rows did). A mail whose
// Message-ID is there already, or comes earlier in ms, is left as it is; which ones
// were is not reported.
func (t *Tx) EnqueueAll(ms []OutboxMail) error {
	args := make([]any, 0, enqueueCols*min(len(ms), enqueueChunks[0]))
	for len(ms) > 0 {
		n := enqueueChunks[len(enqueueChunks)-1]
		for _, c := range enqueueChunks {
			if c <= len(ms) {
				n = c
				break
			}
		}
		args = args[:0]
		for i := range ms[:n] {
			var err error
			if args, err = enqueueArgs(args, &ms[i]); err != nil {
				return err
			}
		}
		if _, err := t.exec(enqueueStatement(n), args...); err != nil {
			return fmt.Errorf("store: enqueue %d mails from %s: %w", n, ms[0].MessageID, err)
		}
		ms = ms[n:]
	}
	return nil
}

// enqueueStatement is the statement that enqueues n mails (n one of enqueueChunks).
func enqueueStatement(n int) string {
	for i, c := range enqueueChunks {
		if c == n {
			return enqueueStatements[i]
		}
	}
	panic(fmt.Sprintf("store: no enqueue statement for %d rows", n))
}

var enqueueStatements = func() (s [len(enqueueChunks)]string) {
	for i, n := range enqueueChunks {
		s[i] = enqueueInsert + enqueueRow + strings.Repeat(","+enqueueRow, n-1) + enqueueConflict
	}
	return s
}()

// DuePending lists up to limit pending mails whose next attempt is due at
// now, oldest due first.
func (t *Tx) DuePending(now time.Time, limit int) ([]OutboxMail, error) {
	return t.outbox(`SELECT `+outboxColumns+` FROM outbox
		WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`, fmtTime(now), limit)
}

// DueToSend is DuePending without the mails awaiting their pictures (AwaitPictures):
// what the sender may hand to SMTP now.
func (t *Tx) DueToSend(now time.Time, limit int) ([]OutboxMail, error) {
	return t.outbox(`SELECT `+outboxColumns+` FROM outbox
		WHERE status = 'pending' AND next_attempt_at <= ?
		AND NOT EXISTS (SELECT 1 FROM outbox_pictures p WHERE p.outbox_id = outbox.id)
		ORDER BY next_attempt_at, id LIMIT ?`, fmtTime(now), limit)
}

// NextDue is when the earliest pending mail is due (zero when none is pending),
// so a sender can sleep until then.
func (t *Tx) NextDue() (time.Time, error) {
	var s sql.NullString
	if err := t.queryRow(`SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'`).Scan(&s); err != nil {
		return time.Time{}, fmt.Errorf("store: outbox next due: %w", err)
	}
	return parseNullTime(s)
}

// OutboxByGame lists the mails about one game (and turn, when turn ≥ 0), in
// the order they were enqueued.
func (t *Tx) OutboxByGame(gameID int64, turn int) ([]OutboxMail, error) {
	if turn < 0 {
		return t.outbox(`SELECT `+outboxColumns+` FROM outbox WHERE game_id = ? ORDER BY id`, gameID)
	}
	return t.outbox(`SELECT `+outboxColumns+` FROM outbox WHERE game_id = ? AND turn = ? ORDER BY id`, gameID, turn)
}

// OutboxAll lists every outgoing mail, of any game or of none (a reply to LIST or
// HELP), oldest first.
func (t *Tx) OutboxAll() ([]OutboxMail, error) {
	return t.outbox(`SELECT ` + outboxColumns + ` FROM outbox ORDER BY id`)
}

// OutboxGet returns one outgoing mail.
func (t *Tx) OutboxGet(id int64) (OutboxMail, error) {
	m, err := scanOutbox(t.queryRow(`SELECT `+outboxColumns+` FROM outbox WHERE id = ?`, id))
	if err != nil {
		return OutboxMail{}, fmt.Errorf("store: outbox %d: %w", id, err)
	}
	return m, nil
}

// MarkSent records that the SMTP server accepted the mail.
func (t *Tx) MarkSent(id int64, now time.Time) error {
	return t.updateOne(fmt.Sprintf("outbox %d: mark sent", id),
		`UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = '', inflight = CASE WHEN inflight > 0 THEN inflight - 1 ELSE 0 END
		 WHERE id = ? AND status = 'pending'`,
		fmtTime(now), id)
}

// MarkSending records, before a mail is handed to SMTP, that an attempt is under way;
// the outcome (MarkSent, MarkRetry, MarkFailed) takes it back. Committed before the
// attempt, it lets the next start know that a crash may have delivered the mail. A
// mail no longer pending, or with two attempts cut off already, is not marked
// (ErrNotFound): another judge's sender may have read it in that state since the caller
// read it, and a third attempt could make a third copy.
func (t *Tx) MarkSending(id int64) error {
	return t.updateOne(fmt.Sprintf("outbox %d: mark sending", id),
		`UPDATE outbox SET inflight = inflight + 1 WHERE id = ? AND status = 'pending' AND inflight < 2`, id)
}

// MarkSentUncertain records as sent a mail whose earlier attempts were cut off mid-send
// (Inflight), so that it is not sent again: it may have arrived already, and sending
// once more could make a third copy.
func (t *Tx) MarkSentUncertain(id int64, now time.Time, note string) error {
	return t.updateOne(fmt.Sprintf("outbox %d: mark sent (uncertain)", id),
		`UPDATE outbox SET status = 'sent', sent_at = ?, last_error = ?, inflight = 0 WHERE id = ? AND status = 'pending'`,
		fmtTime(now), note, id)
}

// MarkRetry records a failed attempt (a 4xx answer, a dropped connection) and
// schedules the next by the retry policy; after MaxAttempts the mail is failed
// instead. It returns the mail's status afterwards, so the caller knows when to
// tell the game master.
func (t *Tx) MarkRetry(id int64, now time.Time, sendErr error) (OutboxStatus, error) {
	what := fmt.Sprintf("outbox %d: mark retry", id)
	var attempts int
	err := t.queryRow(`SELECT attempts FROM outbox WHERE id = ? AND status = 'pending'`, id).Scan(&attempts)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: %s: %w", what, err)
	}
	attempts++
	if attempts >= t.retry.MaxAttempts {
		msg := fmt.Sprintf("gave up after %d attempts: %s", attempts, errText(sendErr))
		if err := t.updateOne(what, `UPDATE outbox SET status = 'failed', attempts = ?, last_error = ?, inflight = CASE WHEN inflight > 0 THEN inflight - 1 ELSE 0 END WHERE id = ?`,
			attempts, msg, id); err != nil {
			return "", err
		}
		return OutboxFailed, nil
	}
	next := now.Add(t.retry.Delay(attempts))
	if err := t.updateOne(what, `UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, inflight = CASE WHEN inflight > 0 THEN inflight - 1 ELSE 0 END WHERE id = ?`,
		attempts, fmtTime(next), errText(sendErr), id); err != nil {
		return "", err
	}
	return OutboxPending, nil
}

// MarkFailed gives up on a mail at once: a permanent (5xx) answer.
func (t *Tx) MarkFailed(id int64, sendErr error) error {
	return t.updateOne(fmt.Sprintf("outbox %d: mark failed", id),
		`UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, inflight = CASE WHEN inflight > 0 THEN inflight - 1 ELSE 0 END
		 WHERE id = ? AND status = 'pending'`,
		errText(sendErr), id)
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := strings.TrimSpace(err.Error())
	const maxLen = 1000
	if len(s) > maxLen {
		s = s[:maxLen] + "…"
	}
	return s
}

func (t *Tx) outbox(q string, args ...any) ([]OutboxMail, error) {
	return queryAll(t, "outbox", scanOutbox, q, args...)
}

func scanOutbox(r scanner) (OutboxMail, error) {
	var (
		m             OutboxMail
		to, status    string
		game, turn    sql.NullInt64
		next, created string
		sent          sql.NullString
		slots         string
	)
	err := r.Scan(&m.ID, &m.MessageID, &to, &m.From, &m.Subject, &m.Raw, &m.Kind, &game, &turn, &status,
		&m.Attempts, &next, &m.LastError, &created, &sent, &m.Inflight, &slots)
	if errors.Is(err, sql.ErrNoRows) {
		return OutboxMail{}, ErrNotFound
	}
	if err != nil {
		return OutboxMail{}, err
	}
	if err := json.Unmarshal([]byte(to), &m.To); err != nil {
		return OutboxMail{}, fmt.Errorf("outbox row %d: to_addrs: %w", m.ID, err)
	}
	if m.Slots, err = parseSlots(slots); err != nil {
		return OutboxMail{}, fmt.Errorf("outbox row %d: secret_slots: %w", m.ID, err)
	}
	m.GameID = game.Int64
	m.Turn = -1
	if turn.Valid {
		m.Turn = int(turn.Int64)
	}
	m.Status = OutboxStatus(status)
	if m.NextAttempt, err = parseTime(next); err != nil {
		return OutboxMail{}, err
	}
	if m.Created, err = parseTime(created); err != nil {
		return OutboxMail{}, err
	}
	if m.Sent, err = parseNullTime(sent); err != nil {
		return OutboxMail{}, err
	}
	return m, nil
}

// Store-level shortcuts for the sender, each its own transaction.

// DuePending is Tx.DuePending in a read-only snapshot.
func (s *Store) DuePending(ctx context.Context, now time.Time, limit int) (ms []OutboxMail, err error) {
	err = s.View(ctx, func(tx *Tx) error { ms, err = tx.DuePending(now, limit); return err })
	return ms, err
}

// DueToSend is Tx.DueToSend in a read-only snapshot.
func (s *Store) DueToSend(ctx context.Context, now time.Time, limit int) (ms []OutboxMail, err error) {
	err = s.View(ctx, func(tx *Tx) error { ms, err = tx.DueToSend(now, limit); return err })
	return ms, err
}

// MarkSent is Tx.MarkSent in its own transaction.
func (s *Store) MarkSent(ctx context.Context, id int64, now time.Time) error {
	return s.Tx(ctx, func(tx *Tx) error { return tx.MarkSent(id, now) })
}

// MarkRetry is Tx.MarkRetry in its own transaction.
func (s *Store) MarkRetry(ctx context.Context, id int64, now time.Time, sendErr error) (st OutboxStatus, err error) {
	err = s.Tx(ctx, func(tx *Tx) error { st, err = tx.MarkRetry(id, now, sendErr); return err })
	return st, err
}

// MarkFailed is Tx.MarkFailed in its own transaction.
func (s *Store) MarkFailed(ctx context.Context, id int64, sendErr error) error {
	return s.Tx(ctx, func(tx *Tx) error { return tx.MarkFailed(id, sendErr) })
}

// OutboxSetRaw replaces an outgoing mail's raw bytes once it is sent or has failed for
// good (a mail that carried a secret is kept with the secret removed).
func (t *Tx) OutboxSetRaw(id int64, raw []byte) error {
	return t.updateOne(fmt.Sprintf("outbox %d raw", id), `UPDATE outbox SET raw = ? WHERE id = ? AND status != 'pending'`, raw, id)
}

// OutboxHas reports whether a mail with the Message-ID was ever enqueued.
func (t *Tx) OutboxHas(messageID string) (bool, error) {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM outbox WHERE message_id = ?`, messageID).Scan(&n); err != nil {
		return false, fmt.Errorf("store: outbox has %s: %w", messageID, err)
	}
	return n > 0, nil
}

// LiveOutboxByGame lists the mails about one game and turn that are not void, in the
// order they were enqueued.
func (t *Tx) LiveOutboxByGame(gameID int64, turn int) ([]OutboxMail, error) {
	return t.outbox(`SELECT `+outboxColumns+` FROM outbox WHERE game_id = ? AND turn = ? AND void_at IS NULL ORDER BY id`, gameID, turn)
}

// VoidOutbox marks the mails of a game's turn of the given kinds void (a rolled-back
// turn's reports): pending ones are never sent (failed, "void"), sent ones are kept for
// the record but no longer re-sent, and the Message-ID is freed (see below). It returns how many mails it marked.
func (t *Tx) VoidOutbox(gameID int64, turn int, kinds []string, now time.Time) (int, error) {
	what := fmt.Sprintf("void mail of game %d turn %d", gameID, turn)
	if err := needTime(what, "now", now); err != nil {
		return 0, err
	}
	if len(kinds) == 0 {
		return 0, nil
	}
	args := []any{fmtTime(now), gameID, turn}
	for _, k := range kinds {
		args = append(args, k)
	}
	in := `(?` + strings.Repeat(",?", len(kinds)-1) + `)`
	// A void mail's message_id gets a "voidID." prefix (its raw keeps the header it was
	// sent with), so that the turn resolved again can enqueue its mails under the same
	// deterministic Message-IDs.
	res, err := t.exec(`UPDATE outbox SET void_at = ?, message_id = 'void' || id || '.' || message_id
		WHERE game_id = ? AND turn = ? AND void_at IS NULL AND kind IN `+in, args...)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	n, _ := res.RowsAffected()
	if _, err := t.exec(`UPDATE outbox SET status = 'failed', last_error = 'void: the turn was rolled back'
		WHERE game_id = ? AND turn = ? AND status = 'pending' AND void_at IS NOT NULL`, gameID, turn); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return int(n), nil
}
