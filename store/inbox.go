package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// InboxStatus is how far a received message got.
type InboxStatus string

// The inbox statuses.
const (
	InboxNew       InboxStatus = "new"       // stored, not yet handled
	InboxProcessed InboxStatus = "processed" // handled; its effects are committed
	InboxRejected  InboxStatus = "rejected"  // refused (identity, size, loop, junk); see Note
	InboxFailed    InboxStatus = "failed"    // handling broke; see Note
)

// InboxMessage is one received mail, stored raw before anything else is done.
type InboxMessage struct {
	ID          int64
	UIDValidity uint32
	UID         uint32
	MessageID   string // the Message-ID header, "" when there was none
	From        string
	Subject     string
	Raw         []byte
	Size        int64 // the message's real size; Raw may be cut short for oversized mail
	Received    time.Time
	Status      InboxStatus
	Note        string
	Updated     time.Time
	// Proofs are a failed row's proofs of the secrets replaced in Raw (inboxproofs.go),
	// by marker; the reads of this file leave it nil (InboxProofs reads them).
	Proofs map[string]string
}

const inboxColumns = `id, uidvalidity, uid, message_id, from_addr, subject, raw, size, received_at, status, note, updated_at`

// inboxByMessageID finds the first mail with a Message-ID. Its second condition (not the
// empty ID) lets SQLite use the partial index inbox_message_id: without it every mail
// stored scanned the whole inbox.
const inboxByMessageID = `SELECT ` + inboxColumns + ` FROM inbox WHERE message_id = ? AND message_id <> '' ORDER BY id LIMIT 1`

// inboxInsertNew inserts a mail unless its UID or its Message-ID is there already (the
// look-up by Message-ID uses inbox_message_id, as inboxByMessageID does).
const inboxInsertNew = `INSERT INTO inbox (uidvalidity, uid, message_id, from_addr, subject, raw, size, received_at, status, note, updated_at)
	SELECT ?,?,?,?,?,?,?,?,?,?,? WHERE ? = '' OR NOT EXISTS (SELECT 1 FROM inbox WHERE message_id = ? AND message_id <> '')
	ON CONFLICT (uidvalidity, uid) DO NOTHING`

// InboxInsert stores a received message unless it was seen before: by
// (UIDValidity, UID), or by Message-ID when it has one. It returns the stored
// row — the existing one with dup true when the message was already there, so
// the same mail seen twice has one effect. Status defaults to new; Size to
// len(Raw); Updated to Received.
func (t *Tx) InboxInsert(m InboxMessage) (InboxMessage, bool, error) {
	// what names the mail in errors (made only for one: a batch stores thousands)
	what := func() string { return fmt.Sprintf("inbox insert uid %d/%d", m.UIDValidity, m.UID) }
	if m.Received.IsZero() {
		return InboxMessage{}, false, needTime(what(), "received", m.Received)
	}
	if m.Status == "" {
		m.Status = InboxNew
	}
	if m.Size == 0 {
		m.Size = int64(len(m.Raw))
	}
	if m.Raw == nil {
		m.Raw = []byte{}
	}
	if m.Updated.IsZero() {
		m.Updated = m.Received
	}
	if e := t.expect; e != nil && m.UIDValidity == e.uidvalidity {
		free := e.free[m.UID] && (m.MessageID == "" || e.freeIDs[m.MessageID])
		// taken from here on, whatever happens to the row (a savepoint rolled back
		// makes a mail wrongly taken, which only sends it the way below)
		delete(e.free, m.UID)
		delete(e.freeIDs, m.MessageID)
		if free { // looked up and not there: queued, inserted with the batch's others
			id, err := t.queue(t.laterFor().inbox, int64(m.UIDValidity), int64(m.UID), m.MessageID, m.From, m.Subject, m.Raw, m.Size,
				fmtTime(m.Received), string(m.Status), m.Note, fmtTime(m.Updated))
			if err != nil {
				return InboxMessage{}, false, fmt.Errorf("store: %s: %w", what(), err)
			}
			m.ID = id
			m.Received, m.Updated = asStored(m.Received), asStored(m.Updated)
			return m, false, nil
		}
	}
	// One statement for the usual case, a mail not seen before: it is inserted unless
	// its UID or its Message-ID is there already, and only then is the old one read
	// (issue 14: two look-ups before every insert cost intake two queries a mail).
	id, inserted, err := t.insertNew(inboxInsertNew,
		m.UIDValidity, m.UID, m.MessageID, m.From, m.Subject, m.Raw, m.Size, fmtTime(m.Received), string(m.Status), m.Note, fmtTime(m.Updated),
		m.MessageID, m.MessageID)
	if err != nil {
		return InboxMessage{}, false, fmt.Errorf("store: %s: %w", what(), err)
	}
	if !inserted { // seen before: by UID first, then by Message-ID
		old, err := scanInbox(t.queryRow(`SELECT `+inboxColumns+` FROM inbox WHERE uidvalidity = ? AND uid = ?`, m.UIDValidity, m.UID))
		if errors.Is(err, ErrNotFound) && m.MessageID != "" {
			old, err = scanInbox(t.queryRow(inboxByMessageID, m.MessageID))
		}
		if err != nil {
			return InboxMessage{}, false, fmt.Errorf("store: %s: %w", what(), err)
		}
		return old, true, nil
	}
	m.ID = id
	// Round the times as the database holds them, so the row returned now and
	// the same row read back later are equal.
	m.Received, m.Updated = asStored(m.Received), asStored(m.Updated)
	return m, false, nil
}

// inboxExpect is what InboxExpect found: the UIDs (under uidvalidity) and Message-IDs
// looked up that the inbox does not hold, and that no InboxInsert of the transaction
// has met since.
type inboxExpect struct {
	uidvalidity uint32
	free        map[uint32]bool
	freeIDs     map[string]bool
}

// InboxExpect looks up which of a batch's mails — their UIDs under uidvalidity and
// their Message-IDs ("" for none) — the inbox holds already, two queries for them all,
// so that InboxInsert queues each of the others (later.go) rather than inserting it
// with a statement of its own that looks for it first: that was the largest statement
// a mail cost intake (issue 24 item 7). A mail InboxInsert meets that was not looked
// up, or was found, is inserted as before, so nothing changes but the statements run.
// It may be called again for more mails of the same UIDVALIDITY. Only in a writing
// transaction on SQLite, where nobody else inserts until it ends (BEGIN IMMEDIATE);
// elsewhere it does nothing.
//
// The look-up leaves the rows queued where they are (scanQueued): the inbox rows it
// does not see, those queued and not yet inserted, it reads from the queue, so a mail
// queued in an earlier look-up and met again (its UID or its Message-ID) is found as if
// it were inserted. Flushing the queue before each look-up cut a batch's inserts into
// small statements, and a statement costs the writer more than a row (issue 24 item 7).
func (t *Tx) InboxExpect(uidvalidity uint32, uids []uint32, messageIDs []string) error {
	if t.pg || !t.write {
		return nil
	}
	if t.expect != nil && t.expect.uidvalidity != uidvalidity {
		t.expect = nil // one UIDVALIDITY at a time: the earlier ones go the way of old
		return nil
	}
	if t.expect == nil {
		t.expect = &inboxExpect{uidvalidity: uidvalidity, free: make(map[uint32]bool, len(uids)), freeIDs: make(map[string]bool, len(uids))}
	}
	e := t.expect
	what := "inbox look-up"
	found := make(map[uint32]bool, len(uids))
	scanUID := func(r *sql.Rows) error {
		var u uint32
		err := r.Scan(&u)
		found[u] = true
		return err
	}
	if lo, hi, ok := uidSpan(uids); ok {
		// A batch's UIDs are the server's next ones, in order: one range of the index
		// (uidvalidity, uid) holds them, and a UID stored in it that the batch lacks is
		// only found, never taken for one of the batch's (free is set from uids below).
		// Cheaper than the list, which SQLite reads from JSON and looks up one by one.
		if err := t.scanQueued(`SELECT uid FROM inbox WHERE uidvalidity = ? AND uid BETWEEN ? AND ?`, scanUID, uidvalidity, lo, hi); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
	} else if len(uids) > 0 {
		var nums []string
		for _, u := range uids {
			nums = append(nums, strconv.FormatUint(uint64(u), 10))
		}
		if err := t.scanQueued(`SELECT uid FROM inbox WHERE uidvalidity = ? AND uid IN (SELECT value FROM json_each(?))`,
			scanUID, uidvalidity, "["+strings.Join(nums, ",")+"]"); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
	}
	ids := make([]string, 0, len(messageIDs))
	for _, id := range messageIDs {
		if id != "" {
			ids = append(ids, id)
		}
	}
	idsJSON, err := json.Marshal(ids)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	foundIDs := make(map[string]bool, len(ids))
	if err := t.scanQueued(`SELECT message_id FROM inbox WHERE message_id IN (SELECT value FROM json_each(?)) AND message_id <> ''`,
		func(r *sql.Rows) error {
			var id string
			err := r.Scan(&id)
			foundIDs[id] = true
			return err
		}, string(idsJSON)); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if t.later != nil { // queued, not yet inserted: held as much as the rows above
		q := t.later.inbox
		for r := 0; r < len(q.vals); r += len(q.columns) { // id, uidvalidity, uid, message_id, …
			if q.vals[r+1].(int64) == int64(uidvalidity) {
				found[uint32(q.vals[r+2].(int64))] = true
			}
			foundIDs[q.vals[r+3].(string)] = true
		}
	}
	for _, u := range uids {
		if !found[u] {
			e.free[u] = true
		}
	}
	for _, id := range ids {
		if !foundIDs[id] {
			e.freeIDs[id] = true
		}
	}
	return nil
}

// uidSpan is the least and the greatest of uids, when they lie close enough together
// that reading every stored UID between them costs no more than looking each up: at
// most four times as many UIDs in the span as looked up, and a few more.
func uidSpan(uids []uint32) (lo, hi uint32, ok bool) {
	if len(uids) == 0 {
		return 0, 0, false
	}
	lo, hi = uids[0], uids[0]
	for _, u := range uids[1:] {
		lo, hi = min(lo, u), max(hi, u)
	}
	return lo, hi, uint64(hi-lo) < 4*uint64(len(uids))+16
}

// scanQueued is scanEach without inserting the rows queued first (later.go): for a
// query that reads only a table whose queued rows the caller reads from the queue.
func (t *Tx) scanQueued(q string, scan func(*sql.Rows) error, args ...any) error {
	ctx := t.stmtCtx()
	var rows *sql.Rows
	var err error
	if s := t.stmt(q); s != nil {
		rows, err = s.QueryContext(ctx, args...)
	} else {
		rows, err = t.tx.QueryContext(ctx, t.sqlText(q), args...)
	}
	return scanRows(rows, err, scan)
}

// scanEach runs a query and calls scan on each row.
func (t *Tx) scanEach(q string, scan func(*sql.Rows) error, args ...any) error {
	rows, err := t.query(q, args...)
	return scanRows(rows, err, scan)
}

// scanRows calls scan on each of rows, the result of a query that failed with err or not.
func scanRows(rows *sql.Rows, err error, scan func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// InboxSetStatus records how handling the message ended, with a note for the
// log (never a secret).
func (t *Tx) InboxSetStatus(id int64, s InboxStatus, note string, now time.Time) error {
	return t.updateOne(fmt.Sprintf("inbox %d: set status %s", id, s),
		`UPDATE inbox SET status = ?, note = ?, updated_at = ? WHERE id = ?`, string(s), note, fmtTime(now), id)
}

// InboxGet returns one stored message.
func (t *Tx) InboxGet(id int64) (InboxMessage, error) {
	m, err := scanInbox(t.queryRow(`SELECT `+inboxColumns+` FROM inbox WHERE id = ?`, id))
	if err != nil {
		return InboxMessage{}, fmt.Errorf("store: inbox %d: %w", id, err)
	}
	return m, nil
}

// InboxByStatus lists up to limit messages with the status, oldest first —
// with InboxNew, the messages stored but not yet handled (after a crash, say).
func (t *Tx) InboxByStatus(s InboxStatus, limit int) ([]InboxMessage, error) {
	return queryAll(t, "inbox "+string(s), scanInbox,
		`SELECT `+inboxColumns+` FROM inbox WHERE status = ? ORDER BY id LIMIT ?`, string(s), limit)
}

// InboxStatusNow is the stored message's status as the transaction may act on it: in a
// writing transaction on PostgreSQL the row is locked for the rest of it (another
// judge judging the same stored mail waits, then reads what that one left). A judge
// about to judge a stored mail checks it is still as it read it (judge.processStored).
func (t *Tx) InboxStatusNow(id int64) (InboxStatus, error) {
	lock := ``
	if t.pg && t.write {
		lock = ` FOR UPDATE`
	}
	var s string
	if err := t.queryRow(`SELECT status FROM inbox WHERE id = ?`+lock, id).Scan(&s); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("store: inbox %d: %w", id, ErrNotFound)
		}
		return "", fmt.Errorf("store: inbox %d: %w", id, err)
	}
	return InboxStatus(s), nil
}

// InboxMaxUID is the highest UID stored under uidvalidity (0 when none).
func (t *Tx) InboxMaxUID(uidvalidity uint32) (uint32, error) {
	var n sql.NullInt64
	if err := t.queryRow(`SELECT max(uid) FROM inbox WHERE uidvalidity = ?`, uidvalidity).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: inbox max uid: %w", err)
	}
	return uint32(n.Int64), nil
}

// MailboxState is where the IMAP reader got to in one mailbox.
type MailboxState struct {
	Mailbox     string
	UIDValidity uint32
	LastUID     uint32
	Updated     time.Time
}

// MailboxState returns the saved state of the mailbox (ErrNotFound when none).
func (t *Tx) MailboxState(mailbox string) (MailboxState, error) {
	var (
		s       = MailboxState{Mailbox: mailbox}
		updated string
	)
	err := t.queryRow(`SELECT uidvalidity, last_uid, updated_at FROM mailbox_state WHERE mailbox = ?`, mailbox).
		Scan(&s.UIDValidity, &s.LastUID, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return MailboxState{}, fmt.Errorf("store: mailbox state %q: %w", mailbox, err)
	}
	if s.Updated, err = parseTime(updated); err != nil {
		return MailboxState{}, err
	}
	return s, nil
}

// SetMailboxState saves where the IMAP reader got to.
func (t *Tx) SetMailboxState(s MailboxState) error {
	_, err := t.exec(`INSERT INTO mailbox_state (mailbox, uidvalidity, last_uid, updated_at) VALUES (?,?,?,?)
		ON CONFLICT (mailbox) DO UPDATE SET uidvalidity = excluded.uidvalidity, last_uid = excluded.last_uid, updated_at = excluded.updated_at`,
		s.Mailbox, s.UIDValidity, s.LastUID, fmtTime(s.Updated))
	if err != nil {
		return fmt.Errorf("store: set mailbox state %q: %w", s.Mailbox, err)
	}
	return nil
}

func scanInbox(r scanner) (InboxMessage, error) {
	var (
		m                 InboxMessage
		status            string
		received, updated string
	)
	err := r.Scan(&m.ID, &m.UIDValidity, &m.UID, &m.MessageID, &m.From, &m.Subject, &m.Raw, &m.Size, &received, &status, &m.Note, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return InboxMessage{}, ErrNotFound
	}
	if err != nil {
		return InboxMessage{}, err
	}
	m.Status = InboxStatus(status)
	if m.Received, err = parseTime(received); err != nil {
		return InboxMessage{}, err
	}
	if m.Updated, err = parseTime(updated); err != nil {
		return InboxMessage{}, err
	}
	return m, nil
}

// InboxFinish records how handling the message ended, as InboxSetStatus, and replaces
// its raw bytes as InboxSetRaw when raw is not nil: one write for both.
func (t *Tx) InboxFinish(id int64, s InboxStatus, note string, now time.Time, raw []byte) error {
	if raw == nil {
		return t.InboxSetStatus(id, s, note, now)
	}
	return t.updateOne(fmt.Sprintf("inbox %d: set status %s and raw", id, s),
		`UPDATE inbox SET status = ?, note = ?, updated_at = ?, raw = ? WHERE id = ?`, string(s), note, fmtTime(now), raw, id)
}

// InboxSetRaw replaces a stored message's raw bytes (its size stays the one received):
// the judge keeps processed mail with the secrets it carried removed.
func (t *Tx) InboxSetRaw(id int64, raw []byte) error {
	return t.updateOne(fmt.Sprintf("inbox %d raw", id), `UPDATE inbox SET raw = ? WHERE id = ?`, raw, id)
}
