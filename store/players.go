package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Player is one robot's player in one game.
type Player struct {
	ID         int64
	GameID     int64
	Robot      string // the robot's name, unique in its game (case-insensitive)
	Seat       int    // the robot's index in the adjudicator's State.Robots
	Email      string // the registered From address
	SecretHash string // from HashSecret; never the secret itself
	Missed     int    // turns in a row without valid orders
	Withdrawn  bool
	Created    time.Time
	// A player's own settings (migration 005; prefs.go).
	Timezone    string // IANA zone name; "" for UTC
	WaitTurn    int    // the turn the player asked to WAIT in; 0 for none
	AbsentFrom  string // an announced absence, "YYYY-MM-DD"; "" for none
	AbsentUntil string
}

// GM is a game master: of one game, or of the whole server when GameID is 0.
type GM struct {
	ID         int64
	GameID     int64
	Email      string
	SecretHash string
	Created    time.Time
}

const playerColumns = `id, game_id, robot, seat, email, secret_hash, missed, withdrawn, created_at, timezone, wait_turn, absent_from, absent_until`

// checkHash refuses anything that is not a bcrypt or keyed hash, so that a plain secret
// can never reach the database by mistake (the schema checks it too).
func checkHash(h string) error {
	if !looksLikeBcrypt(h) && !IsKeyedHash(h) {
		return errors.New("secret must be stored hashed (use HashSecret)")
	}
	return nil
}

// AddPlayer inserts p (its ID is ignored) and returns its new ID.
func (t *Tx) AddPlayer(p Player) (int64, error) {
	what := fmt.Sprintf("add player %q to game %d", p.Robot, p.GameID)
	if err := needTime(what, "created", p.Created); err != nil {
		return 0, err
	}
	if strings.TrimSpace(p.Robot) == "" || strings.TrimSpace(p.Email) == "" {
		return 0, fmt.Errorf("store: %s: robot and email are needed", what)
	}
	if err := checkHash(p.SecretHash); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	id, err := t.insertID(`INSERT INTO players (game_id, robot, seat, email, secret_hash, missed, withdrawn, created_at)
		VALUES (?,?,?,?,?,?,?,?)`,
		p.GameID, p.Robot, p.Seat, p.Email, p.SecretHash, p.Missed, boolInt(p.Withdrawn), fmtTime(p.Created))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// Players lists a game's players by seat.
func (t *Tx) Players(gameID int64) ([]Player, error) {
	return t.players(`SELECT `+playerColumns+` FROM players WHERE game_id = ? ORDER BY seat`, gameID)
}

// PlayersByEmail lists every player registered with the address
// (case-insensitive), in any game.
func (t *Tx) PlayersByEmail(email string) ([]Player, error) {
	return t.players(`SELECT `+playerColumns+` FROM players WHERE email = ? COLLATE NOCASE ORDER BY game_id, seat`, email)
}

// PlayerByRobot returns the player of the named robot (case-insensitive).
func (t *Tx) PlayerByRobot(gameID int64, robot string) (Player, error) {
	ps, err := t.players(`SELECT `+playerColumns+` FROM players WHERE game_id = ? AND robot = ? COLLATE NOCASE`, gameID, robot)
	if err != nil {
		return Player{}, err
	}
	if len(ps) == 0 {
		return Player{}, fmt.Errorf("store: robot %q in game %d: %w", robot, gameID, ErrNotFound)
	}
	return ps[0], nil
}

// SetMissed sets a player's count of missed turns.
func (t *Tx) SetMissed(playerID int64, n int) error {
	return t.updateOne(fmt.Sprintf("set missed of player %d", playerID), `UPDATE players SET missed = ? WHERE id = ?`, n, playerID)
}

// SetWithdrawn marks a player as withdrawn (or back in).
func (t *Tx) SetWithdrawn(playerID int64, w bool) error {
	return t.updateOne(fmt.Sprintf("set withdrawn of player %d", playerID), `UPDATE players SET withdrawn = ? WHERE id = ?`, boolInt(w), playerID)
}

// SetPlayerSecret replaces a player's secret hash.
func (t *Tx) SetPlayerSecret(playerID int64, hash string) error {
	if err := checkHash(hash); err != nil {
		return fmt.Errorf("store: set secret of player %d: %w", playerID, err)
	}
	return t.updateOne(fmt.Sprintf("set secret of player %d", playerID), `UPDATE players SET secret_hash = ? WHERE id = ?`, hash, playerID)
}

// SetPlayerEmail changes a player's registered address.
func (t *Tx) SetPlayerEmail(playerID int64, email string) error {
	return t.updateOne(fmt.Sprintf("set email of player %d", playerID), `UPDATE players SET email = ? WHERE id = ?`, email, playerID)
}

func (t *Tx) players(q string, args ...any) ([]Player, error) {
	rows, err := t.query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: players: %w", err)
	}
	defer rows.Close()
	var ps []Player
	for rows.Next() {
		var (
			p         Player
			withdrawn int
			created   string
		)
		if err := rows.Scan(&p.ID, &p.GameID, &p.Robot, &p.Seat, &p.Email, &p.SecretHash, &p.Missed, &withdrawn, &created,
			&p.Timezone, &p.WaitTurn, &p.AbsentFrom, &p.AbsentUntil); err != nil {
			return nil, fmt.Errorf("store: players: %w", err)
		}
		p.Withdrawn = withdrawn != 0
		if p.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// AddGM inserts a game master (GameID 0: of the whole server).
func (t *Tx) AddGM(g GM) (int64, error) {
	what := fmt.Sprintf("add game master %q", g.Email)
	if err := needTime(what, "created", g.Created); err != nil {
		return 0, err
	}
	if strings.TrimSpace(g.Email) == "" {
		return 0, fmt.Errorf("store: %s: empty email", what)
	}
	if err := checkHash(g.SecretHash); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	id, err := t.insertID(`INSERT INTO gms (game_id, email, secret_hash, created_at) VALUES (?,?,?,?)`,
		nullID(g.GameID), g.Email, g.SecretHash, fmtTime(g.Created))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// GMs lists the game masters of a game, server-wide ones included.
func (t *Tx) GMs(gameID int64) ([]GM, error) {
	rows, err := t.query(`SELECT id, game_id, email, secret_hash, created_at FROM gms
		WHERE game_id = ? OR game_id IS NULL ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: game masters of game %d: %w", gameID, err)
	}
	defer rows.Close()
	var gs []GM
	for rows.Next() {
		var (
			g       GM
			game    sql.NullInt64
			created string
		)
		if err := rows.Scan(&g.ID, &game, &g.Email, &g.SecretHash, &created); err != nil {
			return nil, fmt.Errorf("store: game masters of game %d: %w", gameID, err)
		}
		g.GameID = game.Int64
		if g.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// DeletePlayer removes a player from a game that has no turns yet (a game still
// taking players). Once turn 0 exists the seat is part of the record and the
// player can only be withdrawn.
func (t *Tx) DeletePlayer(playerID int64) error {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM turns WHERE game_id = (SELECT game_id FROM players WHERE id = ?)`, playerID).Scan(&n); err != nil {
		return fmt.Errorf("store: delete player %d: %w", playerID, err)
	}
	if n > 0 {
		return fmt.Errorf("store: delete player %d: the game has started; withdraw the player instead", playerID)
	}
	return t.updateOne(fmt.Sprintf("delete player %d", playerID), `DELETE FROM players WHERE id = ?`, playerID)
}

// RenumberSeats gives a game's players the seats 0, 1, 2 … in their present seat order
// (after players left a game that had not started).
func (t *Tx) RenumberSeats(gameID int64) error {
	ps, err := t.Players(gameID)
	if err != nil {
		return err
	}
	for i, p := range ps { // two passes: (game, seat) is unique
		if _, err := t.exec(`UPDATE players SET seat = ? WHERE id = ?`, -1-i, p.ID); err != nil {
			return fmt.Errorf("store: renumber seats of game %d: %w", gameID, err)
		}
	}
	for i, p := range ps {
		if _, err := t.exec(`UPDATE players SET seat = ? WHERE id = ?`, i, p.ID); err != nil {
			return fmt.Errorf("store: renumber seats of game %d: %w", gameID, err)
		}
	}
	return nil
}

// GMByEmail lists the game masters registered with the address: of the game, and
// server-wide ones (GameID 0).
func (t *Tx) GMByEmail(gameID int64, email string) ([]GM, error) {
	all, err := t.GMs(gameID)
	if err != nil {
		return nil, err
	}
	var out []GM
	for _, g := range all {
		if strings.EqualFold(g.Email, email) {
			out = append(out, g)
		}
	}
	return out, nil
}

// ServerGMs lists the server-wide game masters (GameID 0) with the address.
func (t *Tx) ServerGMs(email string) ([]GM, error) {
	rows, err := t.query(`SELECT id, email, secret_hash, created_at FROM gms WHERE game_id IS NULL AND email = ? COLLATE NOCASE ORDER BY id`, email)
	if err != nil {
		return nil, fmt.Errorf("store: server game masters: %w", err)
	}
	defer rows.Close()
	var gs []GM
	for rows.Next() {
		var (
			g       GM
			created string
		)
		if err := rows.Scan(&g.ID, &g.Email, &g.SecretHash, &created); err != nil {
			return nil, fmt.Errorf("store: server game masters: %w", err)
		}
		if g.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// AddressChange is a player's change of address waiting for the new address to confirm.
type AddressChange struct {
	ID       int64
	PlayerID int64
	NewEmail string
	CodeHash string // bcrypt of the code mailed to NewEmail
	Created  time.Time
}

// AddAddressChange stores a pending change of address (an earlier pending one of the
// same player is dropped: the newest request counts).
func (t *Tx) AddAddressChange(c AddressChange) (int64, error) {
	what := fmt.Sprintf("address change of player %d", c.PlayerID)
	if err := needTime(what, "created", c.Created); err != nil {
		return 0, err
	}
	if err := checkHash(c.CodeHash); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	if _, err := t.exec(`DELETE FROM address_changes WHERE player_id = ? AND done_at IS NULL`, c.PlayerID); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	id, err := t.insertID(`INSERT INTO address_changes (player_id, new_email, code_hash, created_at) VALUES (?,?,?,?)`,
		c.PlayerID, c.NewEmail, c.CodeHash, fmtTime(c.Created))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// PendingAddressChanges lists the changes of address not yet confirmed to email,
// made since the given time.
func (t *Tx) PendingAddressChanges(email string, since time.Time) ([]AddressChange, error) {
	return queryAll(t, "pending address changes", func(r scanner) (AddressChange, error) {
		var c AddressChange
		var created string
		if err := r.Scan(&c.ID, &c.PlayerID, &c.NewEmail, &c.CodeHash, &created); err != nil {
			return c, err
		}
		var err error
		c.Created, err = parseTime(created)
		return c, err
	}, `SELECT id, player_id, new_email, code_hash, created_at FROM address_changes
		WHERE new_email = ? COLLATE NOCASE AND done_at IS NULL AND created_at >= ? ORDER BY id`, email, fmtTime(since))
}

// FinishAddressChange marks a change of address done.
func (t *Tx) FinishAddressChange(id int64, now time.Time) error {
	return t.updateOne(fmt.Sprintf("finish address change %d", id), `UPDATE address_changes SET done_at = ? WHERE id = ?`, fmtTime(now), id)
}

// PlayerByID returns one player.
func (t *Tx) PlayerByID(id int64) (Player, error) {
	ps, err := t.players(`SELECT `+playerColumns+` FROM players WHERE id = ?`, id)
	if err != nil {
		return Player{}, err
	}
	if len(ps) == 0 {
		return Player{}, fmt.Errorf("store: player %d: %w", id, ErrNotFound)
	}
	return ps[0], nil
}

// PendingJoin is a JOIN waiting for the joining address to confirm it (CONFIRM CODE).
type PendingJoin struct {
	ID       int64
	GameID   int64
	Email    string
	Robot    string
	CodeHash string // the code mailed to Email, hashed as secrets are
	Created  time.Time
}

// ObserveRobot is the robot of a pending join that is an OBSERVE waiting for its CONFIRM
// (no robot is named so: a robot's name is letters, digits, - and _).
const ObserveRobot = "*observe*"

// AddPendingJoin stores a JOIN waiting for its confirmation (an earlier pending one from
// the same address to the same game is dropped: the newest JOIN counts).
func (t *Tx) AddPendingJoin(p PendingJoin) (int64, error) {
	what := fmt.Sprintf("pending join of %q to game %d", p.Robot, p.GameID)
	if err := needTime(what, "created", p.Created); err != nil {
		return 0, err
	}
	if strings.TrimSpace(p.Robot) == "" || strings.TrimSpace(p.Email) == "" {
		return 0, fmt.Errorf("store: %s: robot and email are needed", what)
	}
	if err := checkHash(p.CodeHash); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	// an OBSERVE waiting for its CONFIRM and a JOIN waiting for its own do not drop
	// each other
	same := `robot <> ?`
	if p.Robot == ObserveRobot {
		same = `robot = ?`
	}
	if _, err := t.exec(`DELETE FROM pending_joins WHERE game_id = ? AND email = ? COLLATE NOCASE AND done_at IS NULL AND `+same, p.GameID, p.Email, ObserveRobot); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	id, err := t.insertID(`INSERT INTO pending_joins (game_id, email, robot, code_hash, created_at) VALUES (?,?,?,?,?)`,
		p.GameID, p.Email, p.Robot, p.CodeHash, fmtTime(p.Created))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// PendingJoins lists the JOINs from email not yet confirmed, made since the given time.
func (t *Tx) PendingJoins(email string, since time.Time) ([]PendingJoin, error) {
	return queryAll(t, "pending joins", func(r scanner) (PendingJoin, error) {
		var p PendingJoin
		var created string
		if err := r.Scan(&p.ID, &p.GameID, &p.Email, &p.Robot, &p.CodeHash, &created); err != nil {
			return p, err
		}
		var err error
		p.Created, err = parseTime(created)
		return p, err
	}, `SELECT id, game_id, email, robot, code_hash, created_at FROM pending_joins
		WHERE email = ? COLLATE NOCASE AND done_at IS NULL AND created_at >= ? ORDER BY id`, email, fmtTime(since))
}

// FinishPendingJoin marks a pending JOIN confirmed (its seat is taken).
func (t *Tx) FinishPendingJoin(id int64, now time.Time) error {
	return t.updateOne(fmt.Sprintf("finish pending join %d", id), `UPDATE pending_joins SET done_at = ? WHERE id = ?`, fmtTime(now), id)
}
