package judge

import (
	"bytes"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// What judging a sheet for a hosted game reads of the database, kept in the
// transaction's memo (store.Tx.Memo) while the tables it was read from are not written
// (store.Tx.Writes), so that a batch of sheets judged in one transaction reads each
// thing once, and then runs no statement of its own a mail: its rows (the inbox row,
// the version, the audit line, the acknowledgement) are then inserted several to a
// statement (store/later.go). Issue 24 item 7: after the RoboRally games moved behind
// the seam, every accepted sheet read and decoded every version of the turn (intake of
// a backlog of 1,000 sheets went at 30 mails/s, 85 % of it in that fold), decoded the
// position and the course anew, and ran seven statements.

// A hosted game's player's move for a turn is their valid versions of it, folded in the
// order the mail server received them (game.Folder), or the latest when the game does
// not fold. Every accepted sheet asks for the due seats' moves (the acknowledgement
// says who is still missing). So a fold is kept and brought up to date with the versions
// stored since, read by ID (index orders_fold); a version received before the last one
// folded (a backlog read out of order) makes the seat's fold start over. The folds of a
// batch that committed are kept for the next transactions too (seatFoldCache): the next
// batch, and the turn check after each (ResolveIfReady), read only what is new.

// seatFoldKey names one seat's fold: the game, the turn being collected, the position
// it is collected on (the stored turn's row: the fold is the game's for that
// position), the robot and its seat.
type seatFoldKey struct {
	game   int64
	turn   int
	played int64 // the ID of the latest stored turn
	robot  string
	seat   int
}

// seatFold is one seat's valid versions of a turn folded.
type seatFold struct {
	lastID int64      // the highest version ID read
	last   time.Time  // the received time of the last version read (the latest)
	n      int        // the valid versions read
	move   *game.Move // the move they make; nil when none gave one
	// complete: the game takes move as all of the seat's orders (game.Folder's Complete)
	complete bool
	// writes is the transaction's Writes("orders") when the fold was last brought up
	// to date in it; -1 for a fold from the cache of committed ones
	writes int
}

// seatFoldOf is the valid versions of robot (at seat) for the turn g collects, on the
// position h, folded as the game folds them.
func (j *Judge) seatFoldOf(tx *store.Tx, g store.Game, h hosted, robot string, seat int) (seatFold, error) {
	key := seatFoldKey{game: g.ID, turn: g.CurrentTurn, played: h.last.ID, robot: robot, seat: seat}
	memo := tx.Memo()
	writes := tx.Writes("orders")
	f, ok := memo[key].(seatFold)
	if ok && f.writes == writes {
		return f, nil // no version stored since
	}
	if !ok {
		f = j.seatFolds.get(key) // as a transaction that committed left it
	}
	vs, err := tx.ValidOrderVersionsAfter(g.ID, g.CurrentTurn, robot, f.lastID)
	if err != nil {
		return seatFold{}, err
	}
	if len(vs) > 0 && vs[0].Received.Before(f.last) {
		// received before one already folded: the order they count in changed
		f = seatFold{}
		if vs, err = tx.ValidOrderVersionsAfter(g.ID, g.CurrentTurn, robot, 0); err != nil {
			return seatFold{}, err
		}
	}
	for _, v := range vs {
		f = f.with(h, seat, v, nil)
	}
	f.writes = writes
	memo[key] = f
	return f, nil
}

// with is f with the valid version v, received last, folded in; made, when set, is the
// move v stores (storedMove).
func (f seatFold) with(h hosted, seat int, v store.OrderSheet, made *game.Move) seatFold {
	f.n++
	f.lastID, f.last = max(f.lastID, v.ID), v.Received
	var m game.Move
	var err error
	if made != nil {
		m, err = storedMove(*made, v.Parsed)
	} else {
		m, err = hostedMove(v)
	}
	if err != nil || len(m.Data) == 0 {
		return f
	}
	folder, folds := h.pos.(game.Folder)
	if f.move != nil && folds {
		m = folder.Fold(seat, *f.move, m)
	}
	f.move = &m
	f.complete = !folds || folder.Complete(seat, m)
	return f
}

// versionAdded says that the transaction has just stored version v (its ID set) of
// the player at seat, its move made (v.Parsed is its JSON), and that writes was
// Writes("orders") before: the folds that were up to date then stay so, the robot's
// own with v folded in when it is valid and was received last (else the next
// seatFoldOf reads it).
func versionAdded(tx *store.Tx, g store.Game, h hosted, seat int, v store.OrderSheet, made game.Move, writes int) {
	now := tx.Writes("orders")
	if now != writes+1 {
		return // more was written: the next seatFoldOf reads what is new
	}
	v.Received = store.AsStored(v.Received)
	memo := tx.Memo()
	for k, x := range memo {
		key, ok := k.(seatFoldKey)
		if !ok {
			continue
		}
		f := x.(seatFold)
		if f.writes != writes {
			continue
		}
		if v.Valid && key.game == v.GameID && key.turn == v.Turn && key.robot == v.Robot {
			if key.seat != seat || key.played != h.last.ID || v.ID <= f.lastID || v.Received.Before(f.last) {
				continue // not up to date with v: read again when asked for
			}
			f = f.with(h, seat, v, &made)
		}
		f.writes = now
		memo[k] = f
	}
}

// seatFoldCache holds the folds of transactions that committed (publish), bounded,
// emptied when full. Order versions are never removed nor changed once stored (but by
// the adoption of a game stored before the seam, which empties it: legacy.go), so a
// committed fold stays true, and seatFoldOf brings it up to date with what was stored
// since, by this judge or another on the same database.
type seatFoldCache struct {
	mu sync.Mutex
	m  map[seatFoldKey]seatFold
}

func (c *seatFoldCache) get(k seatFoldKey) seatFold {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.m[k]
	f.writes = -1
	return f
}

// publish keeps the folds a transaction's memo holds; call it only once the
// transaction committed with nothing of it rolled back to a savepoint.
func (c *seatFoldCache) publish(memo map[any]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range memo {
		key, ok := k.(seatFoldKey)
		if !ok {
			continue
		}
		if c.m == nil || len(c.m) >= 10000 {
			c.m = map[seatFoldKey]seatFold{}
		}
		c.m[key] = v.(seatFold)
	}
}

// reset forgets every fold.
func (c *seatFoldCache) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// Every sheet for a hosted game is checked against the game's position, decoded from
// the latest stored turn with the game's settings: for RoboRally, the course built
// anew each time. A Position is never changed (game.Position), so the one decoded is
// kept and handed out again while no turn nor game row was written in the transaction
// and the game's settings are the same; else it is handed out again only when the
// latest turn is byte for byte the one it was decoded from.

// stateKey names a game's decoded position in the memo.
type stateKey struct{ game int64 }

// keptState is a decoded position, what it was decoded from, and the transaction's
// Writes("turns", "games") then.
type keptState struct {
	kind   string
	rules  string
	turn   int // the game's current turn
	h      hosted
	writes int
}

// stateMemo is g's position as decoded earlier in the transaction, when nothing it was
// decoded from changed since.
func stateMemo(tx *store.Tx, g store.Game, k game.Kind) (hosted, bool) {
	m, ok := tx.Memo()[stateKey{g.ID}].(keptState)
	if !ok || m.writes != tx.Writes("turns", "games") || m.kind != k.Name() || m.rules != string(g.Rules) || m.turn != g.CurrentTurn {
		return hosted{}, false
	}
	return m.h, true
}

// stateMemoAt is stateMemo for a transaction that wrote turns or games since: the
// position is the one kept when it was decoded from the same settings and turn row as
// last.
func stateMemoAt(tx *store.Tx, g store.Game, k game.Kind, last store.Turn) (hosted, bool) {
	m, ok := tx.Memo()[stateKey{g.ID}].(keptState)
	if !ok || m.kind != k.Name() || m.rules != string(g.Rules) || m.h.last.ID != last.ID ||
		m.h.last.Number != last.Number || !bytes.Equal(m.h.last.After, last.After) {
		return hosted{}, false
	}
	m.h.last = last
	keepState(tx, g, m.h)
	return m.h, true
}

// keepState keeps g's position h, as decoded, in the transaction's memo.
func keepState(tx *store.Tx, g store.Game, h hosted) {
	tx.Memo()[stateKey{g.ID}] = keptState{kind: h.kind.Name(), rules: string(g.Rules), turn: g.CurrentTurn, h: h,
		writes: tx.Writes("turns", "games")}
}

// observesKey names whether an address observes a game in the memo.
type observesKey struct {
	game int64
	addr string
}

// observed is an answer of Observes and the transaction's Writes("observers") then.
type observed struct {
	yes    bool
	writes int
}

// observes is tx.Observes, asked once a transaction while no observer is added or
// removed in it (enqueue asks it for every mail about a game).
func observes(tx *store.Tx, gameID int64, addr string) (bool, error) {
	key, writes := observesKey{gameID, addr}, tx.Writes("observers")
	if o, ok := tx.Memo()[key].(observed); ok && o.writes == writes {
		return o.yes, nil
	}
	yes, err := tx.Observes(gameID, addr)
	if err != nil {
		return false, err
	}
	tx.Memo()[key] = observed{yes, writes}
	return yes, nil
}

// templatesKey names in the memo the templates a game's mails are rendered with.
type templatesKey struct {
	set  *templates.Set
	kind string
}

// templatesIn is templatesFor, layered once a transaction for each game kind (every
// acknowledgement of a batch asked for them: layering the game's templates over the
// judge's a mail cost intake a twentieth of its allocations).
func (j *Judge) templatesIn(tx *store.Tx, g store.Game) game.Renderer {
	key := templatesKey{j.Templates, g.Kind}
	if r, ok := tx.Memo()[key].(game.Renderer); ok {
		return r
	}
	r := j.templatesFor(g)
	if r != nil {
		tx.Memo()[key] = r
	}
	return r
}
