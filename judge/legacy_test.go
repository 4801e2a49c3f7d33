package judge

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// adoptedPosition is the state (as the older path encodes it) and the standing orders
// of game spring once adopted (legacy.go).
func (f *fixture) adoptedPosition() (store.Game, []byte, []*orders.Sheet) {
	f.t.Helper()
	var g store.Game
	var st []byte
	var standing []*orders.Sheet
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("spring"); err != nil {
			return err
		}
		k, err := f.j.hostedKind(g)
		if err != nil || k == nil {
			return fmt.Errorf("game spring is not adopted: %v", err)
		}
		h, err := f.j.hostedState(tx, g, k)
		if err != nil {
			return err
		}
		pb, err := h.pos.Encode()
		if err != nil {
			return err
		}
		var p struct {
			State    *adjudicator.State `json:"state"`
			Standing []*orders.Sheet    `json:"standing"`
		}
		if err := json.Unmarshal(pb, &p); err != nil {
			return err
		}
		standing = p.Standing
		st, err = json.Marshal(p.State)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return g, st, standing
}

// unadopt rewrites game tag, played behind the seam, as the judge stored RoboRally
// before the seam (game.Unadopter: the older path's encodings): the row names no game
// and keeps the course and the engine's rules, each turn its bare states, the engine's
// events and the orders played, each valid order version its orders.Sheet, the options
// the missed-orders policy. It stands in for a database a judge kept before the seam.
func (f *fixture) unadopt(tag string) {
	f.t.Helper()
	var id int64
	var course string
	var rules []byte
	err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag(tag)
		if err != nil {
			return err
		}
		id = g.ID
		k, err := f.j.hostedKind(g)
		if err != nil {
			return err
		}
		u := k.(game.Unadopter)
		if course, rules, err = u.UnadoptConfig(g.Rules); err != nil {
			return err
		}
		turns, err := tx.LiveTurns(g.ID)
		if err != nil {
			return err
		}
		for _, tn := range turns {
			lt, err := unadoptTurn(u, g, tn)
			if err != nil {
				return fmt.Errorf("turn %d: %w", tn.Number, err)
			}
			tn.Before, tn.After, tn.Orders, tn.Events = lt.Before, lt.After, lt.Orders, testEventsJSON(tn)
			if tn.Number == 0 {
				tn.Events, tn.Orders = []byte("[]"), nil
			}
			if err := tx.RewriteTurn(tn); err != nil {
				return err
			}
		}
		players, err := tx.Players(g.ID)
		if err != nil {
			return err
		}
		for turn := 1; turn <= g.CurrentTurn; turn++ {
			for _, p := range players {
				vs, err := tx.ValidOrderVersionsAfter(g.ID, turn, p.Robot, 0)
				if err != nil {
					return err
				}
				for _, v := range vs {
					if err := tx.SetOrderParsed(v.ID, testSheetJSON(v.Parsed)); err != nil {
						return err
					}
				}
			}
		}
		cfg, err := k.LoadConfig(g.Rules)
		if err != nil {
			return err
		}
		o, err := f.j.optionsOf(tx, g)
		if err != nil {
			return err
		}
		o.Missed = cfg.(roborally.Config).MissedPolicy()
		return setOptions(tx, g.ID, o)
	})
	if err != nil {
		f.t.Fatal(err)
	}
	// the row itself: no store call writes a game back to before the seam
	var db *sql.DB
	q := `UPDATE games SET game = '', rules_json = ?, course = ? WHERE id = ?`
	if f.dsn != "" {
		db, err = sql.Open("pgx", f.dsn)
		q = `UPDATE games SET game = '', rules_json = $1, course = $2 WHERE id = $3`
	} else {
		db, err = sql.Open("sqlite", "file:"+f.path)
	}
	if err != nil {
		f.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, string(rules), course, id); err != nil {
		f.t.Fatal(err)
	}
}

// A RoboRally game stored by the judge's older path, adopted mid-turn (legacy.go,
// roborally.Kind.Adopt) — orders of the turn in, standing orders in force, a robot
// powered down or shut down, a robot's mails of the turn folded — plays on through the
// seam as if it had never left it: two databases get the same mails, and one has its
// game written back to the older path's encodings (unadopt) after turn 4 with two
// sheets of turn 5 in and adopted; after every turn their states are the same bytes,
// with the same standing orders, and their archives are the same.
func TestAdoptedGamePlaysOnAsTheOlderPath(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) { adoptedPlaysOn(t, backend) })
	}
}

// fixtureOn is newJudgeFixture on either backend: PostgreSQL in a schema of its own
// (RALLYJUDGE_POSTGRES_DSN, scripts/postgres.sh), skipped without one.
func fixtureOn(t *testing.T, backend string) *fixture {
	t.Helper()
	if backend == "sqlite" {
		return newJudgeFixture(t)
	}
	if os.Getenv("RALLYJUDGE_POSTGRES_DSN") == "" {
		t.Skip("no PostgreSQL: RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh)")
	}
	dsn, pw := failoverSchema(t)
	st, err := store.OpenWith(dsn, store.Options{Password: pw})
	if u, err := url.Parse(dsn); err == nil && pw != "" && u.User != nil {
		u.User = url.UserPassword(u.User.Username(), pw)
		dsn = u.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, j: j, now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), dsn: dsn}
	j.Now = func() time.Time { return f.now }
	j.NewSeed = func() int64 { return f.now.Unix() }
	return f
}

func adoptedPlaysOn(t *testing.T, backend string) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		standing string
		down     string // a robot's orders to power down (postal) or shut down (2023)
	}{
		{"postal", map[string]string{"course": "sprint"}, "if damage > 1 power down", "power down\n"},
		{"2023", map[string]string{"course": "docking-run", "rules": "2023"}, "if damage > 1 shut down", "shut down\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, adopted := newJudgeFixture(t), fixtureOn(t, backend)
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			spec := GameSpec{Tag: "spring", Settings: tc.settings, Seed: 42, GMEmail: "gm@example.test", Deadline: dl}
			old.createGame(spec)
			adopted.createGame(spec)
			both := []*fixture{old, adopted}
			isAdopted := false
			// each fixture's sheet: the same orders, its own secret
			send := func(turn int, r adjudicator.Robot, body string) {
				t.Helper()
				for _, f := range both {
					text := strings.Replace(body, "secret "+old.secrets[r.Name], "secret "+f.secrets[r.Name], 1)
					if _, reply := f.send(strings.ToLower(r.Name)+"@example.test", "[RR spring] orders", text); !strings.Contains(reply, "accepted") || strings.Contains(reply, "NOT accepted") {
						t.Fatalf("turn %d, %s's sheet (adopted %v):\n%s\n%s", turn, r.Name, f == adopted && isAdopted, text, reply)
					}
				}
			}
			same := func(when string) {
				t.Helper()
				g, st := old.state()
				want, _ := json.Marshal(st)
				if !isAdopted {
					ag, ast := adopted.state()
					got, _ := json.Marshal(ast)
					if ag.CurrentTurn != g.CurrentTurn || !bytes.Equal(got, want) {
						t.Fatalf("%s: the two databases differ before the adoption", when)
					}
					return
				}
				ag, got, standing := adopted.adoptedPosition()
				if ag.CurrentTurn != g.CurrentTurn || ag.Status != g.Status {
					t.Fatalf("%s: the adopted game is at turn %d (%s), the other at turn %d (%s)", when, ag.CurrentTurn, ag.Status, g.CurrentTurn, g.Status)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: the adopted game's state is not the other's:\n%s\n%s", when, got, want)
				}
				_, _, oldStanding := old.adoptedPosition()
				w, _ := json.Marshal(oldStanding)
				if s, _ := json.Marshal(standing); !bytes.Equal(s, w) {
					t.Fatalf("%s: the adopted game's standing orders are not the other's:\n%s\n%s", when, s, w)
				}
			}
			program := func(st *adjudicator.State, r adjudicator.Robot, turn int, extra string) string {
				sheet := fmt.Sprintf("robot %s\nturn %d\nsecret %s\n", r.Name, st.Turn, old.secrets[r.Name])
				if st.Robots[0].Mat != nil { // the 2023 rules: cards by kind
					prog := roborally.RandomProgram(old.j.mustSetup(t, "spring"), st, st.Robot(r.Name), 5, turn)
					return sheet + roborally.OwnProgramText(prog) + "\n" + extra
				}
				return old.sheet(r.Name, extra) // old's secret: send writes each fixture's

			}
			wasDown := false
			for turn := 1; turn <= 9; turn++ {
				g, st := old.state()
				if g.Status != store.GameRunning {
					break
				}
				same(fmt.Sprintf("before turn %d", turn))
				for _, r := range st.Robots {
					if turn == 5 && r.Power == adjudicator.PowerDown {
						wasDown = true // at the adoption
					}
				}
				standingOnly := func(r adjudicator.Robot) string {
					return fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", r.Name, st.Turn, old.secrets[r.Name], tc.standing)
				}
				var later []adjudicator.Robot // turn 5: sent after the adoption
				for _, r := range st.Robots {
					if !roborally.NeedsProgram(r) {
						continue
					}
					switch {
					case r.Name == "Hulk" && (turn == 3 || turn == 7): // missed: the deadline plays it
					case turn == 5 && r.Name != "Twonky" && !isAdopted:
						if r.Name == "Zoombot" { // standing orders alone, the program after
							send(turn, r, standingOnly(r))
						}
						later = append(later, r)
					case r.Name == "Zoombot" && turn == 2: // the program, then standing orders alone
						send(turn, r, program(st, r, turn, ""))
						send(turn, r, standingOnly(r))
					case r.Name == "Hulk" && turn == 4 && tc.name == "2023": // a plain shutdown
						send(turn, r, fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s", r.Name, st.Turn, old.secrets[r.Name], tc.down))
					case r.Name == "Hulk" && turn == 4:
						send(turn, r, program(st, r, turn, tc.down))
					case turn == 1 && r.Name == "Twonky":
						send(turn, r, program(st, r, turn, "if damage > 2 power down\n"))
					default:
						send(turn, r, program(st, r, turn, ""))
					}
				}
				if turn == 5 {
					// the game as a judge stored it before the seam, with two sheets of
					// turn 5 in, handed to RoboRally behind the seam
					adopted.unadopt("spring")
					if g, _ := adopted.game("spring"); g.Kind != "" || g.Course != "sprint" && g.Course != "docking-run" {
						t.Fatalf("the game written back plays %q on course %q", g.Kind, g.Course)
					}
					n, err := adopted.j.AdoptLegacy(context.Background())
					if err != nil || n != 1 {
						t.Fatalf("AdoptLegacy: %d games, %v", n, err)
					}
					isAdopted = true
					if n, err := adopted.j.AdoptLegacy(context.Background()); err != nil || n != 0 {
						t.Fatalf("AdoptLegacy again: %d games, %v", n, err)
					}
					same("at the adoption")
					for _, r := range later {
						send(turn, r, program(st, r, turn, ""))
					}
				}
				if g, _ := old.state(); g.CurrentTurn == turn { // a missing program, a held turn
					for _, f := range both {
						f.now = f.now.Add(25 * time.Hour)
						if _, err := f.j.Tick(context.Background()); err != nil {
							t.Fatal(err)
						}
					}
				}
				same(fmt.Sprintf("after turn %d", turn))
			}
			if !isAdopted {
				t.Fatal("the game ended before the adoption")
			}
			if !wasDown && tc.name == "postal" {
				t.Error("no robot was powered down at the adoption")
			}
			// the archive of today: the adopted game's (game.Unadopter) is the older
			// path's byte for byte, and replays bit for bit
			var archives [2]bytes.Buffer
			for i, f := range both {
				a := f.archiveOf("spring")
				if err := rja.Write(&archives[i], a); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(archives[0].Bytes(), archives[1].Bytes()) {
				t.Fatalf("the adopted game's archive is not the older path's:\n%s\n%s", archives[1].String(), archives[0].String())
			}
			a, err := rja.Read(&archives[1])
			if err != nil {
				t.Fatal(err)
			}
			if err := rja.Replay(&a, nil, -1, nil); err != nil {
				t.Fatalf("the adopted game's archive does not replay: %v", err)
			}
			// the adopted game's reports are mailed through the seam
			if reps := adopted.mailsTo("twonky@example.test", "report"); len(reps) == 0 {
				t.Fatal("no report from the adopted game")
			}
		})
	}
}

// A stored game the adoption cannot read (damaged or hostile bytes in a turn, an order
// version or the settings) is refused with an error that names the game and the turn,
// and nothing of it changes.
func TestAdoptRefusesDamagedGames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(tx *store.Tx, f *fixture, g store.Game) error
		want   []string
	}{
		{"a state without robots", func(tx *store.Tx, f *fixture, g store.Game) error {
			tn, err := tx.Turn(g.ID, 2)
			if err != nil {
				return err
			}
			tn.After = json.RawMessage(`{"turn":3,"robots":[]}`)
			return tx.RewriteTurn(tn)
		}, []string{"game spring turn 2", "no robots"}},
		{"a state of another shape", func(tx *store.Tx, f *fixture, g store.Game) error {
			tn, err := tx.Turn(g.ID, 1)
			if err != nil {
				return err
			}
			tn.After = json.RawMessage(`{"robots":"Twonky"}`)
			return tx.RewriteTurn(tn)
		}, []string{"game spring turn 1", "unreadable"}},
		{"events of another shape", func(tx *store.Tx, f *fixture, g store.Game) error {
			tn, err := tx.Turn(g.ID, 2)
			if err != nil {
				return err
			}
			tn.Events = json.RawMessage(`{"events":1}`)
			return tx.RewriteTurn(tn)
		}, []string{"game spring turn 2", "events unreadable"}},
		{"orders played of another shape", func(tx *store.Tx, f *fixture, g store.Game) error {
			tn, err := tx.Turn(g.ID, 1)
			if err != nil {
				return err
			}
			tn.Orders = json.RawMessage(`[{"robot":7}]`)
			return tx.RewriteTurn(tn)
		}, []string{"game spring turn 1", "orders played unreadable"}},
		{"an order version of another shape", func(tx *store.Tx, f *fixture, g store.Game) error {
			vs, err := tx.ValidOrderVersionsAfter(g.ID, 3, "Twonky", 0)
			if err != nil || len(vs) == 0 {
				return fmt.Errorf("no version of turn 3: %v", err)
			}
			return tx.SetOrderParsed(vs[0].ID, json.RawMessage(`{"orders":"P490"}`))
		}, []string{"game spring turn 3", "Twonky's orders unreadable"}},
		{"a missed-orders policy unknown", func(tx *store.Tx, f *fixture, g store.Game) error {
			return setOptions(tx, g.ID, Options{Missed: "teleport"})
		}, []string{"game spring", `missed-orders policy "teleport"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newJudgeFixture(t)
			f.createGame(GameSpec{Tag: "spring", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test",
				Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}})
			f.playTurns(2)
			f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", ""))) // turn 3's, in
			f.unadopt("spring")
			var before []store.Turn
			var versions []store.OrderSheet
			err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
				g, err := tx.GameByTag("spring")
				if err != nil {
					return err
				}
				if err := tc.damage(tx, f, g); err != nil {
					return err
				}
				if before, err = tx.LiveTurns(g.ID); err != nil {
					return err
				}
				versions, err = tx.OrderVersions(g.ID, 3, "Twonky")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			n, err := f.j.AdoptLegacy(context.Background())
			if err == nil || n != 0 {
				t.Fatalf("AdoptLegacy adopted %d games, err %v; want the game refused", n, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q: %v", w, err)
				}
			}
			err = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				g, err := tx.GameByTag("spring")
				if err != nil {
					return err
				}
				if g.Kind != "" {
					t.Errorf("the refused game plays %q now", g.Kind)
				}
				after, err := tx.LiveTurns(g.ID)
				if err != nil {
					return err
				}
				vs, err := tx.OrderVersions(g.ID, 3, "Twonky")
				if err != nil {
					return err
				}
				b1, _ := json.Marshal(before)
				b2, _ := json.Marshal(after)
				v1, _ := json.Marshal(versions)
				v2, _ := json.Marshal(vs)
				if !bytes.Equal(b1, b2) || !bytes.Equal(v1, v2) {
					t.Error("the refused game's turns or order versions changed")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
