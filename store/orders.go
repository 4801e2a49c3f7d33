package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// OrderSheet is one version of one robot's orders for one turn, exactly as
// received. Every version is kept; the latest valid one counts.
type OrderSheet struct {
	ID       int64
	GameID   int64
	Turn     int
	Robot    string
	InboxID  int64           // the inbox row it came in; 0 when entered another way
	Raw      string          // the sheet's text as the player wrote it
	Parsed   json.RawMessage // the orders package's structured reading; nil when unreadable
	Valid    bool
	Errors   []string // what was wrong, as told to the player
	Received time.Time
}

const orderColumns = `id, game_id, turn, robot, inbox_id, raw, parsed, valid, errors, received_at`

// AddOrders stores one version of a sheet and returns its ID. Commit it in the
// same Tx as its acknowledgement (Enqueue).
func (t *Tx) AddOrders(o OrderSheet) (int64, error) {
	values, err := ordersValues(o)
	if err != nil {
		return 0, err
	}
	id, err := t.insertID(`INSERT INTO orders (game_id, turn, robot, inbox_id, raw, parsed, valid, errors, received_at)
		VALUES (?,?,?,?,?,?,?,?,?)`, values...)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", ordersWhat(o), err)
	}
	return id, nil
}

// AddOrdersLater is AddOrders, the row inserted with others just before the
// transaction's next statement of another kind (later.go). The ID is the one the row
// gets.
func (t *Tx) AddOrdersLater(o OrderSheet) (int64, error) {
	values, err := ordersValues(o)
	if err != nil {
		return 0, err
	}
	return t.queue(t.laterFor().orders, values...)
}

func ordersWhat(o OrderSheet) string {
	return fmt.Sprintf("add orders of %q for turn %d of game %d", o.Robot, o.Turn, o.GameID)
}

// ordersValues checks o and gives the values of its row, in the order of the columns
// game_id, turn, robot, inbox_id, raw, parsed, valid, errors, received_at.
func ordersValues(o OrderSheet) ([]any, error) {
	if o.Received.IsZero() { // what, made only for an error: a batch stores thousands
		return nil, needTime(ordersWhat(o), "received", o.Received)
	}
	ej := "[]" // a valid sheet's
	if len(o.Errors) > 0 {
		b, err := json.Marshal(o.Errors)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", ordersWhat(o), err)
		}
		ej = string(b)
	}
	// int64, not int: database/sql takes an int only through reflection
	return []any{o.GameID, int64(o.Turn), o.Robot, nullID(o.InboxID), o.Raw, nullJSON(o.Parsed), int64(boolInt(o.Valid)), ej, fmtTime(o.Received)}, nil
}

// LatestValidOrders returns, for each robot (by name as stored) that has any,
// its latest valid sheet for the turn. "Latest" is by received time, then by
// insertion order.
func (t *Tx) LatestValidOrders(gameID int64, turn int) (map[string]OrderSheet, error) {
	// The window picks one row per robot; the index orders_turn covers it.
	os, err := t.orders(`SELECT `+orderColumns+` FROM (
			SELECT *, row_number() OVER (PARTITION BY robot ORDER BY received_at DESC, id DESC) AS rn
			FROM orders WHERE game_id = ? AND turn = ? AND valid = 1
		) AS latest WHERE rn = 1`, gameID, turn)
	if err != nil {
		return nil, fmt.Errorf("store: latest valid orders for turn %d of game %d: %w", turn, gameID, err)
	}
	m := make(map[string]OrderSheet, len(os))
	for _, o := range os {
		m[o.Robot] = o
	}
	return m, nil
}

// OrderVersions lists every version of a robot's sheet for a turn, oldest first.
func (t *Tx) OrderVersions(gameID int64, turn int, robot string) ([]OrderSheet, error) {
	os, err := t.orders(`SELECT `+orderColumns+` FROM orders
		WHERE game_id = ? AND turn = ? AND robot = ? ORDER BY received_at, id`, gameID, turn, robot)
	if err != nil {
		return nil, fmt.Errorf("store: orders of %q for turn %d of game %d: %w", robot, turn, gameID, err)
	}
	return os, nil
}

// validOrdersAfter reads in index order (orders_fold); sorting the few rows it returns in
// Go costs less than SQLite's sorter.
const validOrdersAfter = `SELECT ` + orderColumns + ` FROM orders
	WHERE game_id = ? AND turn = ? AND robot = ? AND valid = 1 AND id > ? ORDER BY id`

// ValidOrderVersionsAfter lists the valid versions of a robot's sheet for a turn stored
// after the version with ID afterID (0: all), in the order they count: by received time
// (the mail server's), then as stored. Callers that fold versions incrementally use it
// to read only what is new (index orders_fold).
func (t *Tx) ValidOrderVersionsAfter(gameID int64, turn int, robot string, afterID int64) ([]OrderSheet, error) {
	os, err := t.orders(validOrdersAfter, gameID, turn, robot, afterID)
	if err != nil {
		return nil, fmt.Errorf("store: valid orders of %q for turn %d of game %d after %d: %w", robot, turn, gameID, afterID, err)
	}
	slices.SortStableFunc(os, func(a, b OrderSheet) int { return a.Received.Compare(b.Received) })
	return os, nil
}

func (t *Tx) orders(q string, args ...any) ([]OrderSheet, error) {
	rows, err := t.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var os []OrderSheet
	for rows.Next() {
		var (
			o        OrderSheet
			inbox    sql.NullInt64
			parsed   sql.NullString
			valid    int
			errs     string
			received string
		)
		if err := rows.Scan(&o.ID, &o.GameID, &o.Turn, &o.Robot, &inbox, &o.Raw, &parsed, &valid, &errs, &received); err != nil {
			return nil, err
		}
		o.InboxID = inbox.Int64
		if parsed.Valid {
			o.Parsed = json.RawMessage(parsed.String)
		}
		o.Valid = valid != 0
		if err := json.Unmarshal([]byte(errs), &o.Errors); err != nil {
			return nil, fmt.Errorf("orders row %d: errors column: %w", o.ID, err)
		}
		if len(o.Errors) == 0 {
			o.Errors = nil
		}
		if o.Received, err = parseTime(received); err != nil {
			return nil, err
		}
		os = append(os, o)
	}
	return os, rows.Err()
}
