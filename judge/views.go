package judge

import (
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/store"
)

// views hold what judging a sheet reads of its game — the game row, its players, the
// state the turn is played from (decoded from JSON), the standing orders of earlier
// turns — read once per game for all the sheets one transaction judges instead of
// twice for each (issue 14: intake spent more CPU reading the same game again than on
// anything else). They stay true while only sheets are judged: a sheet writes its own
// version, an audit line, auth failures and mail, none of which a view holds. Whatever
// may change more (a command mail, a mail rolled back to its savepoint) must reset
// them. A nil *views reads everything afresh; a state it hands out is shared and
// must not be changed.
type views struct {
	byTag map[string]*gameView
	byID  map[int64]*gameView
	// folds are the robots' folds (turnSheets) read in this transaction. A write
	// transaction has the database to itself, so only a sheet it stores itself can
	// change one: storeSheet calls added.
	folds map[foldKey]fold
	// acks, in a batch judged without savepoints, composes the batch's acknowledgements
	// beside the writer; they are stored before the commit (ackQueue). Nil elsewhere.
	acks *ackQueue
}

type gameView struct {
	g        store.Game
	players  []store.Player
	st       *adjudicator.State
	last     store.Turn
	standing map[string]*orders.Sheet // nil until asked for
}

// reset forgets every view.
func (v *views) reset() {
	if v != nil {
		v.byTag, v.byID, v.folds = nil, nil, nil
	}
}

func (v *views) put(gv *gameView) {
	if v.byTag == nil {
		v.byTag, v.byID = map[string]*gameView{}, map[int64]*gameView{}
	}
	v.byTag[gv.g.Tag] = gv
	v.byID[gv.g.ID] = gv
}

// game is the game by its tag (store.ErrNotFound when there is none).
func (v *views) game(tx *store.Tx, tag string) (store.Game, error) {
	if v == nil {
		return tx.GameByTag(tag)
	}
	if gv := v.byTag[tag]; gv != nil {
		return gv.g, nil
	}
	g, err := tx.GameByTag(tag)
	if err != nil {
		return g, err
	}
	v.put(&gameView{g: g})
	return g, nil
}

// of is g's view, made for it when there is none yet.
func (v *views) of(g store.Game) *gameView {
	if gv := v.byID[g.ID]; gv != nil {
		return gv
	}
	gv := &gameView{g: g}
	v.put(gv)
	return gv
}

func (v *views) players(tx *store.Tx, g store.Game) ([]store.Player, error) {
	if v == nil {
		return tx.Players(g.ID)
	}
	gv := v.of(g)
	if gv.players == nil {
		ps, err := tx.Players(g.ID)
		if err != nil {
			return nil, err
		}
		gv.players = ps
	}
	return gv.players, nil
}

// state is as stateOf.
func (v *views) state(tx *store.Tx, g store.Game) (*adjudicator.State, store.Turn, error) {
	if v == nil {
		return stateOf(tx, g)
	}
	gv := v.of(g)
	if gv.st == nil {
		st, last, err := stateOf(tx, g)
		if err != nil {
			return nil, last, err
		}
		gv.st, gv.last = st, last
	}
	return gv.st, gv.last, nil
}

// standing is as j.standingOrders.
func (v *views) standing(j *Judge, tx *store.Tx, g store.Game, st *adjudicator.State) (map[string]*orders.Sheet, error) {
	if v == nil {
		return j.standingOrders(tx, g, st)
	}
	gv := v.of(g)
	if gv.standing == nil {
		s, err := j.standingOrders(tx, g, st)
		if err != nil {
			return nil, err
		}
		gv.standing = s
	}
	return gv.standing, nil
}

// sheets is as j.turnSheets, reading the database only for a robot whose versions it
// has not read in this transaction or that has stored one since.
func (v *views) sheets(j *Judge, tx *store.Tx, gameID int64, turn int, st *adjudicator.State) (map[string]*orders.Sheet, error) {
	if v == nil {
		return j.turnSheets(tx, gameID, turn, st)
	}
	if v.folds == nil {
		v.folds = map[foldKey]fold{}
	}
	out := map[string]*orders.Sheet{}
	for _, r := range st.Robots {
		key := foldKey{gameID, turn, r.Name}
		f, ok := v.folds[key]
		if !ok {
			var err error
			if f, err = j.foldOf(tx, key); err != nil {
				return nil, err
			}
			v.folds[key] = f
		}
		if f.sheet != nil {
			out[r.Name] = f.sheet
		}
	}
	return out, nil
}

// added says that a valid version of a robot's sheet was stored in this transaction: it
// is folded in as turnSheets would read it (unless it was received before the last one
// folded: then the robot's fold is read again).
func (v *views) added(o store.OrderSheet) {
	if v == nil {
		return
	}
	key := foldKey{o.GameID, o.Turn, o.Robot}
	f, ok := v.folds[key]
	if !ok {
		return
	}
	if o.Received.Before(f.last) || o.ID <= f.lastID {
		delete(v.folds, key)
		return
	}
	if s, err := sheetOf(o); err == nil {
		f.sheet = orders.Merge(f.sheet, s)
	}
	f.lastID, f.last = o.ID, o.Received.Truncate(time.Microsecond) // as the store keeps it
	v.folds[key] = f
}

// publish hands the folds read and made in a transaction that committed to the judge's
// fold cache: they are the committed state now, and the turn check after a batch
// (ResolveIfReady) need not read and fold the batch's sheets again. Only a transaction
// in which nothing was rolled back may publish (a rollback resets the views anyway).
func (v *views) publish(c *foldCache) {
	if v == nil {
		return
	}
	for k, f := range v.folds {
		if f.lastID > 0 {
			c.put(k, f)
		}
	}
}
