package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/store"
)

// A turn resolves when every robot in the race that runs a program this turn has
// valid orders, or when the deadline (plus grace) passes (Tick). Resolving commits the
// new state and every report in one transaction (the outbox pattern): a crash leaves
// either the old turn with no reports, or the new turn with all of them.

// needsProgram reports whether robot r must send a program this turn.
func needsProgram(r adjudicator.Robot) bool { return !r.Out && r.Power != adjudicator.PowerDown }

// readiness lists the robots whose program is still missing.
func readiness(st *adjudicator.State, sheets map[string]*orders.Sheet, players []store.Player) (missing []string) {
	for i, r := range st.Robots {
		if !needsProgram(r) {
			continue
		}
		if p := playerAt(players, i); p != nil && p.Withdrawn {
			continue // a withdrawn player's robot plays by the missed-orders policy
		}
		if !hasOrders(r, sheets[r.Name]) {
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
	return j.resolve(ctx, gameID, false)
}

// ResolveNow resolves the game's current turn whatever is missing (the deadline passed,
// or a game master said so): missing programs follow the missed-orders policy.
func (j *Judge) ResolveNow(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, true)
}

func (j *Judge) resolve(ctx context.Context, gameID int64, force bool) (bool, error) {
	resolved := false
	var tag string
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		if force { // the deadline: an absent player may move it (absence.go)
			if deferred, err := j.deferForAbsence(tx, gameID); err != nil || deferred {
				return err
			}
		}
		var err error
		resolved, tag, err = j.resolveIn(tx, gameID, force)
		return err
	})
	if err != nil {
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
		ords := make([]adjudicator.Orders, len(st.Robots))
		played := make([]Played, len(st.Robots))
		// Withdrawn players' robots leave the race (lifecycle.go, removeWithdrawn).
		notes := removeWithdrawn(st, players)
		missedBy := map[string]bool{}
		private := map[string]string{} // robot → what was played for it, told to its player alone
		own := setup.Rules.Own()
		for i := range st.Robots {
			r := &st.Robots[i]
			sheet := effectiveSheet(standing[r.Name], valid, r.Name)
			played[i] = Played{Robot: r.Name}
			if sheet != nil {
				ords[i] = engineOrders(setup, r, sheet)
				rulesOnly := *sheet
				rulesOnly.Program, rulesOnly.Secret = nil, ""
				played[i].Sheet = &rulesOnly
				played[i].Shutdown = ords[i].Shutdown
			}
			if !needsProgram(*r) || (hasOrders(*r, sheet) && validProgram(setup, st, i, withoutUpgrades(ords[i]))) {
				continue
			}
			missedBy[r.Name] = true
			policy := opts.policy(g)
			if p := playerAt(players, i); p != nil && !p.Withdrawn && absentOn(*p, j.now()) {
				switch opts.absence() { // absence.go: an absent player's robot
				case "autopilot":
					policy = MissedAutopilot
				case "powerdown":
					policy = string(store.MissedPowerDown)
				}
			}
			switch {
			case policy == MissedAutopilot:
				plan := autopilot.Choose(setup, st, i)
				ords[i].Program = plan.Program
				played[i].Missed = MissedAutopilot
				// With no orders of its own at all, the robot's decisions follow the
				// autopilot's suggested standing orders too (kept in the record, so the
				// turn replays); under the 2023 rules its upgrade phase too, when the
				// engine takes it.
				if sheet == nil || len(sheet.Rules) == 0 {
					if auto := autopilotSheet(plan.Orders); auto != nil {
						o := ords[i]
						o.Decider = orders.Compile(auto)
						if own {
							o.Upgrade, o.Shutdown = auto.OwnOrders(r).Upgrade, plan.Shutdown
							if !validProgram(setup, st, i, o) {
								auto = auto.WithoutUpgradePhase()
								o.Decider, o.Upgrade = orders.Compile(auto), adjudicator.UpgradeOrders{}
							}
						}
						ords[i] = o
						played[i].Sheet = auto
					}
				}
				if own && plan.Shutdown { // the autopilot shuts the robot down (autopilot/rules2023.go)
					ords[i].Shutdown = true
				}
				played[i].Shutdown = ords[i].Shutdown
				notes = append(notes, fmt.Sprintf("%s sent no orders: the autopilot played %s.", r.Name, j.programWords(setup, ords[i].Program)))
				private[r.Name] = fmt.Sprintf("the autopilot played %s for you.\nWhy: %s", j.programWords(setup, ords[i].Program), plan.Why)
			case policy == string(store.MissedRandom):
				ords[i].Program = RandomProgram(setup, st, i, g.Seed, g.CurrentTurn)
				played[i].Missed = string(store.MissedRandom)
				what := "a random program was played"
				if own {
					what = "Act Fast filled its registers at random from its hand"
				}
				notes = append(notes, fmt.Sprintf("%s sent no orders: %s (%s).", r.Name, what, j.programWords(setup, ords[i].Program)))
				private[r.Name] = fmt.Sprintf("%s for you: %s.", what, j.programWords(setup, ords[i].Program))
			case own:
				// Ruling R-MISSED-SHUTDOWN (docs/rules-2023.md): under the 2023 rules a
				// robot without orders shuts down for the round, with seed 004's
				// consequences, exactly as if its orders had said "shut down": a
				// shutdown is declared for the round it is played in, so it gives
				// nothing an order could not.
				ords[i].Program, ords[i].Shutdown = [adjudicator.Registers]int{}, true
				played[i].Missed, played[i].Shutdown = string(store.MissedPowerDown), true
				notes = append(notes, fmt.Sprintf("%s sent no orders: it is shut down this round.", r.Name))
				private[r.Name] = "your robot was shut down for the round (no orders): its damage cards in hand were discarded, it played nothing."
			default:
				// Ruling (missed orders, power down): the robot sits the turn out powered
				// down, as if it had announced it; unlike an announced power down it is
				// not repaired (a missed turn is no free repair).
				r.Power = adjudicator.PowerDown
				ords[i].Program = [adjudicator.Registers]int{}
				played[i].Missed = string(store.MissedPowerDown)
				notes = append(notes, fmt.Sprintf("%s sent no orders: it is powered down this turn.", r.Name))
				private[r.Name] = "your robot was powered down for the turn (no program, no repair)."
			}
		}
		if own {
			for i := range st.Robots {
				// An upgrade phase the robot cannot pay for as the round begins (two
				// sheets of the round, each checked alone, or a missed program's
				// filling) is dropped, and the program played.
				if !st.Robots[i].Out && !ords[i].Upgrade.Empty() && !validProgram(setup, st, i, ords[i]) {
					ords[i].Upgrade = adjudicator.UpgradeOrders{}
					if played[i].Sheet != nil {
						played[i].Sheet = played[i].Sheet.WithoutUpgradePhase()
						ords[i].Decider = orders.Compile(played[i].Sheet)
					}
					private[st.Robots[i].Name] = strings.TrimSpace(private[st.Robots[i].Name] + "\n" +
						"your upgrade orders could not be carried out together (each sheet was checked alone, or energy ran short): none was.")
				}
				// Never a turn held up by orders the engine refuses: what is left is
				// played as Act Fast would (logged: it means a check above is missing).
				if errs := setup.CheckOrders(st, i, ords[i]); !st.Robots[i].Out && len(errs) > 0 {
					j.Log.Error("2023 orders refused by the engine after the judge's checks; played at random", "game", g.Tag, "robot", st.Robots[i].Name, "err", errs[0].Error())
					ords[i] = adjudicator.Orders{Program: randomOwnProgram(st, i, g.Seed, g.CurrentTurn)}
					played[i].Sheet, played[i].Shutdown, played[i].Missed = nil, false, string(store.MissedRandom)
				}
			}
		}
		for i := range played {
			played[i].Program = ords[i].Program
		}
		before := st.Clone() // exactly what the engine is given: with played, it reproduces next
		next, events, err := adjudicator.Resolve(setup, st, ords)
		if err != nil {
			return fmt.Errorf("game %s turn %d: %w", g.Tag, g.CurrentTurn, err)
		}
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
			if p.Sheet != nil {
				inForce[p.Robot] = p.Sheet
				if own { // the upgrade phase and a plain shutdown were this round's only
					inForce[p.Robot] = p.Sheet.Standing2023()
				}
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
		return j.afterTurn(tx, g, opts, players, missedBy, private, next)
	}()
	return resolved, tag, err
}

// Played is the record of a robot's orders as the engine played them.
type Played = orders.Played

// autopilotSheet is the autopilot's suggested standing orders as a sheet; nil when
// none parse (they always should: autopilot tests parse every line).
func autopilotSheet(lines []string) *orders.Sheet {
	s := &orders.Sheet{}
	for i, l := range lines {
		if r, err := orders.ParseRule(l, i+1); err == nil {
			s.Rules = append(s.Rules, r)
		}
	}
	if len(s.Rules) == 0 {
		return nil
	}
	return s
}

func validProgram(s *adjudicator.Setup, st *adjudicator.State, i int, o adjudicator.Orders) bool {
	return len(s.CheckOrders(st, i, o)) == 0
}

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
				standingOnly := *s
				standingOnly.Program = nil
				stands := &standingOnly
				if rules.Own() { // the upgrade phase and a plain shutdown are the round's own
					stands = standingOnly.Standing2023()
				}
				out[r.Name] = orders.Merge(out[r.Name], stands)
			}
		}
	}
	return out, nil
}

// RandomProgram is a legal program drawn from the robot's hand, fixed by (seed, turn,
// robot): the "random" missed-orders policy.
func RandomProgram(s *adjudicator.Setup, st *adjudicator.State, robot int, seed int64, turn int) [adjudicator.Registers]int {
	if s.Rules.Own() {
		return randomOwnProgram(st, robot, seed, turn) // Act Fast: rules2023.go
	}
	r := st.Robots[robot]
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(turn)<<8|uint64(robot)))
	hand := append([]int(nil), r.Hand...)
	rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
	var p [adjudicator.Registers]int
	k := 0
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.IsLocked(reg) || k >= len(hand) {
			continue
		}
		p[reg-1] = hand[k]
		k++
	}
	return p
}

// programWords is a program in words for the game's ruleset.
func (j *Judge) programWords(s *adjudicator.Setup, p [adjudicator.Registers]int) string {
	if s.Rules.Own() {
		return ownProgramText(p)
	}
	return programText(p)
}

// withoutUpgrades is o without its upgrade phase.
func withoutUpgrades(o adjudicator.Orders) adjudicator.Orders {
	o.Upgrade = adjudicator.UpgradeOrders{}
	return o
}

func programText(p [adjudicator.Registers]int) string {
	var parts []string
	for _, c := range p {
		if c == 0 {
			parts = append(parts, "locked")
		} else {
			parts = append(parts, fmt.Sprintf("P%d", c))
		}
	}
	return strings.Join(parts, " ")
}

func deadlineText(t time.Time) string {
	if t.IsZero() {
		return "(no deadline)"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
}

var errNoGame = errors.New("no such game")
