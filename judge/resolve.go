package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// A turn resolves when every robot in the race that runs a program this turn has
// valid orders, or when the deadline (plus grace) passes (Tick). Resolving commits the
// new state and every report in one transaction (the outbox pattern): a crash leaves
// either the old turn with no reports, or the new turn with all of them.

// readiness lists the robots whose program is still missing.
func readiness(st *adjudicator.State, sheets map[string]*orders.Sheet, players []store.Player) (missing []string) {
	for i, r := range st.Robots {
		if !roborally.NeedsProgram(r) {
			continue
		}
		if p := playerAt(players, i); p != nil && p.Withdrawn {
			continue // a withdrawn player's robot plays by the missed-orders policy
		}
		if !roborally.HasOrders(r, sheets[r.Name]) {
			missing = append(missing, r.Name)
		}
	}
	return missing
}

func playerAt(players []store.Player, seat int) *store.Player {
	for i := range players {
		if players[i].Seat == seat {
			return &players[i]
		}
	}
	return nil
}

func sheetOf(o store.OrderSheet) (*orders.Sheet, error) {
	var s orders.Sheet
	if err := json.Unmarshal(o.Parsed, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// turnSheets is each robot's sheet for one turn: its valid versions folded with
// orders.Merge (a sheet with a program replaces; a standing-orders-only sheet merges over
// what stands) in the order the mail server received them, then as stored: a version
// sent later counts over one sent earlier, whichever the judge read first (a backlog, a
// mail taken up again after a failure). Robots with no valid sheet are absent. Versions
// are append-only, so the fold is kept (j.folds) and extended with the versions stored
// since; one received before a version already folded makes the robot's fold start
// over.
func (j *Judge) turnSheets(tx *store.Tx, gameID int64, turn int, st *adjudicator.State) (map[string]*orders.Sheet, error) {
	out := map[string]*orders.Sheet{}
	for _, r := range st.Robots {
		f, err := j.foldOf(tx, foldKey{gameID, turn, r.Name})
		if err != nil {
			return nil, err
		}
		if f.sheet != nil {
			out[r.Name] = f.sheet
		}
	}
	return out, nil
}

// foldOf is one robot's fold (turnSheets), brought up to date with the database.
func (j *Judge) foldOf(tx *store.Tx, key foldKey) (fold, error) {
	f := j.folds.get(key)
	vs, err := tx.ValidOrderVersionsAfter(key.game, key.turn, key.robot, f.lastID)
	if err != nil {
		return f, err
	}
	if len(vs) > 0 && vs[0].Received.Before(f.last) {
		f = fold{}
		if vs, err = tx.ValidOrderVersionsAfter(key.game, key.turn, key.robot, 0); err != nil {
			return f, err
		}
	}
	for _, v := range vs {
		if s, err := sheetOf(v); err == nil {
			f.sheet = orders.Merge(f.sheet, s)
		}
		f.lastID, f.last = max(f.lastID, v.ID), v.Received
	}
	if len(vs) > 0 {
		j.folds.put(key, f)
	}
	return f, nil
}

type foldKey struct {
	game  int64
	turn  int
	robot string
}

type fold struct {
	lastID int64         // the highest version ID folded
	last   time.Time     // the received time of the last version folded (the latest)
	sheet  *orders.Sheet // never changed once stored: Merge makes new sheets
}

// foldCache holds folded sheets; bounded, emptied when full. A transaction that rolls
// back after put leaves a fold that counts versions never committed, so put is only
// called for versions read from the database, which a rollback cannot remove (the
// inbound path stores a version and folds it in the same transaction: see forget).
type foldCache struct {
	mu sync.Mutex
	m  map[foldKey]fold
}

func (c *foldCache) get(k foldKey) fold {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *foldCache) put(k foldKey, f fold) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 10000 {
		c.m = map[foldKey]fold{}
	}
	c.m[k] = f
}

// reset forgets everything (after a transaction that may have folded uncommitted rows
// failed).
func (c *foldCache) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// ResolveIfReady resolves the game's current turn when every program is in.
func (j *Judge) ResolveIfReady(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, false, false)
}

// ResolveNow resolves the game's current turn whatever is missing (the deadline passed,
// or a game master said so): missing programs follow the missed-orders policy.
func (j *Judge) ResolveNow(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, true, false)
}

// resolveDue is ResolveNow for the clock: only when the game's deadline (plus grace)
// has passed as the game stands under its lock. Another judge may have resolved the
// turn since the clock read it, opening the next one, whose deadline has not.
func (j *Judge) resolveDue(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, true, true)
}

func (j *Judge) resolve(ctx context.Context, gameID int64, force, due bool) (bool, error) {
	resolved := false
	var tag string
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		// One judge resolves a game at a time (store/claims.go): another judge holding
		// the game's lock is resolving it, or judging its mail, and this one leaves it.
		if ok, err := tx.LockGame(gameID); err != nil || !ok {
			if err == nil {
				err = errGameBusy
			}
			return err
		}
		if due {
			g, err := tx.Game(gameID)
			if err != nil {
				return err
			}
			if g.Status != store.GameRunning || g.DeadlineAt.IsZero() || g.DeadlineAt.Add(g.Grace).After(j.now()) {
				return nil
			}
		}
		if force { // the deadline: an absent player may move it (absence.go)
			if deferred, err := j.deferForAbsence(tx, gameID); err != nil || deferred {
				return err
			}
		}
		var err error
		resolved, tag, err = j.resolveIn(tx, gameID, force)
		return err
	})
	if err != nil && !errors.Is(err, errGameBusy) {
		j.folds.reset()
	}
	if err == nil && resolved {
		if j.stopAt("after-turn-commit") {
			return resolved, nil
		}
		j.Log.Info("turn resolved", "game", tag)
	}
	return resolved, err
}

// resolveIn resolves the game's current turn inside tx (see resolve); a game master's
// PROCESS runs it in the transaction of the command mail.
func (j *Judge) resolveIn(tx *store.Tx, gameID int64, force bool) (resolved bool, tag string, err error) {
	err = func() error {
		g, err := tx.Game(gameID)
		if err != nil {
			return err
		}
		tag = g.Tag
		if g.Status != store.GameRunning {
			return nil
		}
		if k, err := j.hostedKind(g); err != nil || k != nil {
			if err != nil {
				return err
			}
			resolved, err = j.resolveHostedIn(tx, g, k, force)
			return err
		}
		st, last, err := stateOf(tx, g)
		if err != nil {
			return err
		}
		if last.Number+1 != g.CurrentTurn || st.Over {
			return nil
		}
		players, err := tx.Players(g.ID)
		if err != nil {
			return err
		}
		valid, err := j.turnSheets(tx, g.ID, g.CurrentTurn, st)
		if err != nil {
			return err
		}
		if missing := readiness(st, valid, players); (len(missing) > 0 || len(holds(g, st, valid, players)) > 0) && !force {
			return nil
		}
		setup, err := j.setupFor(g)
		if err != nil {
			return err
		}
		standing, err := j.standingOrders(tx, g, st)
		if err != nil {
			return err
		}
		opts, err := j.optionsOf(tx, g)
		if err != nil {
			return err
		}
		// Withdrawn players' robots leave the race (lifecycle.go, removeWithdrawn).
		notes := removeWithdrawn(st, players)
		sheets := make([]*orders.Sheet, len(st.Robots))
		for i, r := range st.Robots {
			sheets[i] = effectiveSheet(standing[r.Name], valid, r.Name)
		}
		policy := func(i int) string {
			if p := playerAt(players, i); p != nil && !p.Withdrawn && absentOn(*p, j.now()) {
				switch opts.absence() { // absence.go: an absent player's robot
				case "autopilot":
					return MissedAutopilot
				case "powerdown":
					return string(store.MissedPowerDown)
				}
			}
			return opts.policy(g)
		}
		// what a robot plays, and what is played for one without orders, is
		// RoboRally's to say (roborally.Prepare)
		prep := roborally.Prepare(setup, st, sheets, policy, g.Seed, g.CurrentTurn)
		for _, r := range prep.Refused {
			j.Log.Error("2023 orders refused by the engine after the judge's checks; played at random", "game", g.Tag, "robot", r.Robot, "err", r.Err.Error())
		}
		ords, played, missedBy, private := prep.Orders, prep.Played, prep.Missed, prep.Private
		notes = append(notes, prep.Notes...)
		before := st.Clone() // exactly what the engine is given: with played, it reproduces next
		// The log is lent by a pooled Resolver (issue 24 item 1): stored and narrated
		// here, and nothing keeps it past this function.
		lent, err := adjudicator.ResolveLent(setup, st, ords)
		if err != nil {
			return fmt.Errorf("game %s turn %d: %w", g.Tag, g.CurrentTurn, err)
		}
		defer lent.Release()
		next, events := lent.Next, lent.Events
		bJSON, _ := json.Marshal(before)
		aJSON, _ := json.Marshal(next)
		eJSON, _ := json.Marshal(events)
		pJSON, _ := json.Marshal(played)
		now := j.now()
		if _, err := tx.SaveTurn(store.Turn{GameID: g.ID, Number: g.CurrentTurn, Before: bJSON, After: aJSON, Events: eJSON, Orders: pJSON, Resolved: now}); err != nil {
			return err
		}
		for _, p := range players {
			n := 0
			if missedBy[p.Robot] {
				n = p.Missed + 1
			}
			if n != p.Missed {
				if err := tx.SetMissed(p.ID, n); err != nil {
					return err
				}
			}
		}
		deadline := time.Time{}
		if next.Over || !inRace(next) {
			if err := tx.SetGameStatus(g.ID, store.GameOver); err != nil {
				return err
			}
		} else if deadline, err = g.Deadline.Next(now); err != nil {
			return err
		}
		if err := tx.SetDeadline(g.ID, deadline); err != nil {
			return err
		}
		why := "all orders in"
		if force {
			why = "deadline"
		}
		if _, err := tx.Audit(store.AuditEntry{At: now, GameID: g.ID, Actor: "judge", Action: "resolve",
			Detail: fmt.Sprintf("turn %d (%s)", g.CurrentTurn, why)}); err != nil {
			return err
		}
		resolved = true
		// The standing orders in force after this turn: the earlier ones with this turn's
		// merged over them, as played (played[i].Sheet holds the rules only).
		inForce := map[string]*orders.Sheet{}
		for _, p := range played {
			if p.Sheet != nil { // the upgrade phase and a plain shutdown were this round's only
				inForce[p.Robot] = roborally.Standing(setup.Rules, p.Sheet)
			}
		}
		if err := j.enqueueReports(tx, g, setup, next, events, players, inForce, deadline, notes); err != nil {
			return err
		}
		gen, err := tx.VoidTurns(g.ID, g.CurrentTurn)
		if err != nil {
			return err
		}
		if err := j.turnSummaryForGMs(tx, g, before, played, players, missedBy, force, gen, next); err != nil {
			return err
		}
		return j.afterTurn(tx, g, opts, players, missedBy, private, next.Over)
	}()
	return resolved, tag, err
}

// Played is the record of a robot's orders as the engine played them.
type Played = orders.Played

// standingOrders is each robot's standing orders in force: the merge, in order, of
// every valid sheet it sent for earlier turns (orders.Merge documents the rules).
func (j *Judge) standingOrders(tx *store.Tx, g store.Game, st *adjudicator.State) (map[string]*orders.Sheet, error) {
	out := map[string]*orders.Sheet{}
	rules := gameRules(g)
	for turn := 1; turn < g.CurrentTurn; turn++ {
		sheets, err := j.turnSheets(tx, g.ID, turn, st)
		if err != nil {
			return nil, err
		}
		for _, r := range st.Robots {
			if s := sheets[r.Name]; s != nil {
				// the upgrade phase and a plain shutdown are the round's own
				out[r.Name] = orders.Merge(out[r.Name], roborally.Standing(rules, s))
			}
		}
	}
	return out, nil
}

func deadlineText(t time.Time) string {
	if t.IsZero() {
		return "(no deadline)"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
}

var errNoGame = errors.New("no such game")

// errGameBusy: another judge holds the game's lock (it resolves the game, or judges a
// mail about it); the game is left to it, and looked at again at the next tick.
var errGameBusy = errors.New("another judge holds the game")
