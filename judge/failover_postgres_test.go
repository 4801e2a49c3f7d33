package judge

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make and drop the test's schema

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestFailoverThreeJudges runs three `rallyjudge serve` on one PostgreSQL database and
// the real mail stack (Postfix in, Dovecot out), plays a game by mail and a game whose
// turns fall to their deadlines, and kills a judge with SIGKILL every two or three
// seconds (every other kill the one reading the mailbox), restarting it, at least 30
// times. The three share the work (shared.go): one reads the mailbox at a time (the
// intake claim), each turn is resolved by whichever judge locks its game first, each
// outbox row is sent under a claim. Afterwards every sheet is stored once, no turn is
// resolved twice, no report is missing, no mail arrived more than twice, and every
// deadline was met, never early and no later than the lease plus a tick. It logs the
// takeover times (the kill of the judge reading the mailbox to another reading it) and
// how late the deadlines were met. RALLYJUDGE_POSTGRES=1 and RALLYJUDGE_MAILSTACK=1.
func TestFailoverThreeJudges(t *testing.T) {
	if os.Getenv("RALLYJUDGE_POSTGRES") != "1" || os.Getenv("RALLYJUDGE_POSTGRES_DSN") == "" {
		t.Skip("needs PostgreSQL: RALLYJUDGE_POSTGRES=1 and RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh; .ci/run sets both)")
	}
	if testing.Short() {
		t.Skip("builds the daemon and kills it 30 times")
	}
	imapAddr, smtpAddr := needMailstack(t)
	pw := map[string]string{"alice": "alicepw", "bob": "bobpw", "carol": "carolpw", "orders": "orderspw"}
	for u, p := range pw {
		clearMailbox(t, imapAddr, u, p)
	}
	dsn, dbPW := failoverSchema(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "rallyjudge")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/rallyjudge/rallyjudge/cmd/rallyjudge").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx := context.Background()
	st, err := store.OpenWith(dsn, store.Options{Password: dbPW})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j, err := New(st, "orders@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"alice", "bob", "carol"}
	spec := GameSpec{Tag: "failover", Settings: map[string]string{"course": "sprint"}, Seed: 9, GMEmail: "carol@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, p := range players {
		spec.Players = append(spec.Players, PlayerSpec{Robot: strings.ToUpper(p[:1]) + p[1:], Email: p + "@example.test"})
	}
	if _, err := j.CreateGame(ctx, spec); err != nil {
		t.Fatal(err)
	}
	// A second game whose players never write: each turn is resolved by its deadline,
	// which the test sets a few seconds ahead as each turn opens.
	late := GameSpec{Tag: "deadlines", Settings: map[string]string{"course": "sprint"}, Seed: 4, GMEmail: "carol@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, p := range players[:2] {
		late.Players = append(late.Players, PlayerSpec{Robot: "Late" + p, Email: p + "@example.test"})
	}
	if _, err := j.CreateGame(ctx, late); err != nil {
		t.Fatal(err)
	}
	deadlines := map[int]time.Time{} // turn of the game "deadlines" → its deadline
	setDeadline := func() {
		var g store.Game
		if err := st.Tx(ctx, func(tx *store.Tx) error {
			var err error
			if g, err = tx.GameByTag("deadlines"); err != nil || g.Status != store.GameRunning {
				return err
			}
			if _, set := deadlines[g.CurrentTurn]; set {
				return nil
			}
			// on a whole second, as deadlines are (the judge's clock counts seconds)
			at := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second)
			deadlines[g.CurrentTurn] = at
			return tx.SetDeadline(g.ID, at)
		}); err != nil {
			t.Fatal(err)
		}
	}
	const lease, tick = 2 * time.Second, 250 * time.Millisecond // the default lease
	cfg := filepath.Join(dir, "rallyjudge.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, `database: %s
database_password_env: RJ_DB_PW
judge_address: orders@example.test
imap:
  address: %s
  tls: plain
  username: orders
  password_env: RJ_IMAP_PW
  poll_interval: 300ms
  idle_timeout: 1s
smtp:
  address: %s
  tls: none
tick_interval: %s
lease: %s
`, dsn, imapAddr, smtpAddr, tick, lease), 0o600); err != nil {
		t.Fatal(err)
	}

	// the three judges: each run of each writes a log of its own
	type judgeProc struct {
		cmd  *exec.Cmd
		log  string
		done chan struct{}
	}
	runs := 0
	start := func() *judgeProc {
		runs++
		name := filepath.Join(dir, fmt.Sprintf("judge-%03d.log", runs))
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "serve", "--config", cfg)
		cmd.Env = append(os.Environ(), "RJ_IMAP_PW=orderspw", "RJ_DB_PW="+dbPW)
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &judgeProc{cmd: cmd, log: name, done: make(chan struct{})}
		go func() { _ = cmd.Wait(); f.Close(); close(p.done) }()
		return p
	}
	reading := func(p *judgeProc) bool { // holds the intake claim, as its log last said
		b, _ := os.ReadFile(p.log)
		l := string(b)
		took := strings.LastIndex(l, "holds the intake claim")
		return took >= 0 && took > strings.LastIndex(l, "stopped reading the mailbox") &&
			took > strings.LastIndex(l, "the intake claim was lost")
	}
	alive := func(p *judgeProc) bool {
		select {
		case <-p.done:
			return false
		default:
			return true
		}
	}
	judges := []*judgeProc{start(), start(), start()}
	defer func() {
		for _, p := range judges {
			_ = p.cmd.Process.Signal(syscall.SIGKILL)
			<-p.done
		}
	}()
	reader := func() int {
		for i, p := range judges {
			if alive(p) && reading(p) {
				return i
			}
		}
		return -1
	}
	logs := func() string {
		var b strings.Builder
		for _, p := range judges {
			fmt.Fprintf(&b, "%s ", p.log)
		}
		return b.String()
	}

	game := func() (store.Game, *adjudicator.State) {
		var g store.Game
		var s *adjudicator.State
		if err := st.View(ctx, func(tx *store.Tx) error {
			var err error
			if g, err = tx.GameByTag("failover"); err != nil {
				return err
			}
			s, _, err = testStateOf(tx, g)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return g, s
	}
	// each player's secret is the one its welcome gives (the last, if a kill sent two)
	secrets := map[string]string{}
	for end := time.Now().Add(2 * time.Minute); len(secrets) < len(players); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("welcomes with a secret arrived for %d of %d players; see %s", len(secrets), len(players), logs())
		}
		for _, p := range players {
			for _, raw := range mailboxMessages(t, imapAddr, p, pw[p]) {
				if m, err := mail.Extract(raw); err == nil && strings.Contains(m.Subject, "[RR failover] Welcome") {
					if sec := secretInText.FindStringSubmatch(m.Text); sec != nil {
						secrets[strings.ToUpper(p[:1])+p[1:]] = sec[1]
					}
				}
			}
		}
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: smtpAddr, TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	sendSheets := func(turn int, s *adjudicator.State) {
		for i, r := range s.Robots {
			prog := roborally.RandomProgram(j.mustSetup(t, "failover"), s, i, 77, turn)
			var cards []string
			for _, p := range prog {
				if p == 0 {
					cards = append(cards, "locked")
				} else {
					cards = append(cards, fmt.Sprintf("P%d", p))
				}
			}
			if r.Power == adjudicator.PowerDown || r.Out {
				cards = nil
			}
			body := fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", r.Name, turn, secrets[r.Name], strings.Join(cards, " "))
			raw := rawMail(players[i]+"@example.test", fmt.Sprintf("[RR failover] turn %d", turn), body)
			if err := sender.Send(ctx, players[i]+"@example.test", []string{"orders@example.test"}, raw); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Play while killing: sheets go in as each turn opens; a judge dies every 2-3 s.
	rng := rand.New(rand.NewPCG(25, 3))
	const wantKills, wantTurns = 30, 3
	kills, sentFor := 0, 0
	var takeovers []time.Duration
	began := time.Now()
	nextKill := time.Now().Add(2 * time.Second)
	for {
		g, s := game()
		if g.CurrentTurn > sentFor {
			sentFor = g.CurrentTurn
			sendSheets(sentFor, s)
		}
		setDeadline()
		if kills >= wantKills && g.CurrentTurn > wantTurns {
			break
		}
		if time.Since(began) > 4*time.Minute {
			t.Fatalf("after %v: %d kills, game at turn %d (want %d kills, turn %d); see %s",
				time.Since(began).Round(time.Second), kills, g.CurrentTurn, wantKills, wantTurns+1, logs())
		}
		for i, p := range judges { // a judge that stopped by itself (it no longer served) is restarted too
			if !alive(p) {
				judges[i] = start()
			}
		}
		if time.Now().Before(nextKill) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		victim, srv := rng.IntN(len(judges)), reader()
		if kills%2 == 0 && srv >= 0 {
			victim = srv
		}
		_ = judges[victim].cmd.Process.Signal(syscall.SIGKILL)
		<-judges[victim].done
		killed := time.Now()
		kills++
		if victim == srv { // how long until one of the other two reads the mailbox
			for reader() < 0 {
				if time.Since(killed) > 30*time.Second {
					t.Fatalf("no judge took over within 30 s of kill %d; see %s", kills, logs())
				}
				time.Sleep(10 * time.Millisecond)
			}
			takeovers = append(takeovers, time.Since(killed))
		}
		judges[victim] = start()
		nextKill = time.Now().Add(2*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
	}
	// no more kills: the last turn's mail goes out
	final, _ := game()
	for end := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		var due []store.OutboxMail
		if err := st.View(ctx, func(tx *store.Tx) error {
			var err error
			due, err = tx.DuePending(time.Now().Add(24*time.Hour), 100)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%d mails still pending a minute after the last kill; see %s", len(due), logs())
		}
	}
	slices.Sort(takeovers)
	if len(takeovers) == 0 {
		t.Fatal("the judge reading the mailbox was never killed")
	}
	t.Logf("%d kills in %v, %d of the judge reading the mailbox; game at turn %d; takeover median %v, max %v (lease %v)",
		kills, time.Since(began).Round(time.Second), len(takeovers), final.CurrentTurn,
		takeovers[len(takeovers)/2].Round(time.Millisecond), takeovers[len(takeovers)-1].Round(time.Millisecond), lease)

	// Every deadline met once, never early, and no later than the lease and a tick: a
	// judge killed loses its claims and locks at once (its sockets close), and every
	// judge ticks, so a deadline waits for no judge's takeover and for no other game's
	// resolution; what the lease bounds is the time a judge holds its game's lock
	// unseen. Not met, the test fails; the figures go to the log.
	deadlineBound := lease + tick
	var lateness []time.Duration
	raw := rawDB(t, dsn, dbPW)
	if err := st.View(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("deadlines")
		if err != nil {
			return err
		}
		for n, at := range deadlines {
			if n >= g.CurrentTurn {
				// not resolved: only if it was not due long enough before the check
				if time.Since(at) > 30*time.Second {
					t.Errorf("deadlines, turn %d: due %v ago and not resolved", n, time.Since(at).Round(time.Millisecond))
				}
				continue
			}
			tn, err := tx.Turn(g.ID, n)
			if err != nil {
				return fmt.Errorf("deadlines, turn %d: %w", n, err)
			}
			if v, err := tx.VoidTurns(g.ID, n); err != nil || v != 0 {
				t.Errorf("deadlines, turn %d: %d void versions (%v): resolved more than once", n, v, err)
			}
			if d := tn.Resolved.Sub(at); d < 0 {
				t.Errorf("deadlines, turn %d: resolved %v before its deadline", n, -d)
			}
			// when the resolution wrote the game's row, to the microsecond (the feed of
			// store migration 013; the turn's own time is in whole seconds): the first
			// change of the game after the deadline, the test's next deadline coming after
			var first string
			if err := raw.QueryRow(`SELECT coalesce(min(at), '') FROM game_changes WHERE game_id = $1 AND at >= $2`,
				g.ID, at.Format("2006-01-02T15:04:05.000000Z")).Scan(&first); err != nil {
				return err
			}
			met, err := time.Parse("2006-01-02T15:04:05.000000Z", first)
			if err != nil {
				return fmt.Errorf("deadlines, turn %d: no change of the game after its deadline (%q): %w", n, first, err)
			}
			lateness = append(lateness, met.Sub(at))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(lateness)
	if len(lateness) < 3 {
		t.Fatalf("only %d turns of the game 'deadlines' passed their deadline", len(lateness))
	}
	if lateness[len(lateness)-1] > deadlineBound {
		t.Errorf("a deadline was met %v late (bound %v)", lateness[len(lateness)-1], deadlineBound)
	}
	t.Logf("%d deadlines met, late by %v at the median, %v at most", len(lateness),
		lateness[len(lateness)/2].Round(time.Millisecond), lateness[len(lateness)-1].Round(time.Millisecond))

	// Every turn once, every sheet once.
	if err := st.View(ctx, func(tx *store.Tx) error {
		for n := 0; n < final.CurrentTurn; n++ {
			if _, err := tx.Turn(final.ID, n); err != nil {
				return fmt.Errorf("turn %d: %w", n, err)
			}
			if v, err := tx.VoidTurns(final.ID, n); err != nil || v != 0 {
				t.Errorf("turn %d: %d void versions (%v): resolved more than once", n, v, err)
			}
		}
		// Each sheet the test sent (its "turn N" line says which) stored once at most, and
		// once when its robot had to run a program that turn (the turn waited for it: no
		// deadline in this game). A powered-down robot's sheet may come after its turn
		// resolved without it: it is then refused, or stored (invalid) under the next turn.
		declared := map[string]map[int]int{}
		for n := 0; n <= final.CurrentTurn; n++ {
			for _, p := range spec.Players {
				vs, err := tx.OrderVersions(final.ID, n, p.Robot)
				if err != nil {
					return err
				}
				for _, v := range vs {
					m := turnLine.FindStringSubmatch(v.Raw)
					if m == nil {
						t.Errorf("turn %d, %s: a sheet without a turn line stored: %q", n, p.Robot, v.Raw)
						continue
					}
					if declared[p.Robot] == nil {
						declared[p.Robot] = map[int]int{}
					}
					k, _ := strconv.Atoi(m[1])
					declared[p.Robot][k]++
				}
			}
		}
		for n := 1; n < final.CurrentTurn; n++ {
			// the robots as turn n found them: the position after the turn before
			prev, err := tx.Turn(final.ID, n-1)
			if err != nil {
				return err
			}
			var before adjudicator.State
			if err := json.Unmarshal(testAfterJSON(prev), &before); err != nil || len(before.Robots) == 0 {
				return fmt.Errorf("turn %d: the robots before it do not read (%v)", n, err)
			}
			for _, r := range before.Robots {
				switch c := declared[r.Name][n]; {
				case c > 1:
					t.Errorf("turn %d, %s: the sheet stored %d times", n, r.Name, c)
				case c == 0 && roborally.NeedsProgram(r):
					t.Errorf("turn %d, %s: the sheet its turn waited for is not stored", n, r.Name)
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Every report arrived, none more than twice.
	dups := 0
	for i, p := range players {
		seen := map[string]int{}
		for _, raw := range mailboxMessages(t, imapAddr, p, pw[p]) {
			if m, err := mail.Extract(raw); err == nil {
				seen[m.MessageID]++
			}
		}
		for id, n := range seen {
			if n > 2 {
				t.Errorf("%s: %s arrived %d times (at most twice)", p, id, n)
			}
			dups += n - 1
		}
		for n := 0; n < final.CurrentTurn; n++ {
			id := strings.Trim(j.reportID("failover", n, i), "<>")
			if seen[id] == 0 {
				t.Errorf("%s: the report of turn %d is missing", p, n)
			}
		}
	}
	if dups > kills {
		t.Errorf("%d mails arrived twice after %d kills", dups, kills)
	}
	t.Logf("%d mails arrived twice (same Message-ID) after %d kills", dups, kills)
}

// failoverSchema makes a schema of the tests' PostgreSQL database for one test, dropped
// when it ends, and returns a DSN whose search_path is it, and the password.
func failoverSchema(t testing.TB) (string, string) {
	t.Helper()
	dsn := os.Getenv("RALLYJUDGE_POSTGRES_DSN")
	pw := os.Getenv("PGPASSWORD")
	if f := os.Getenv("RALLYJUDGE_POSTGRES_PASSWORD_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pw = strings.TrimSpace(string(b))
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	admin := *u
	if pw != "" {
		admin.User = url.UserPassword(u.User.Username(), pw)
	}
	db, err := sql.Open("pgx", admin.String())
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("failover_%d", time.Now().UnixNano())
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		db.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		db.Close()
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), pw
}

// rawDB is a pool on dsn (a failoverSchema's) for what the store has no method for.
func rawDB(t testing.TB, dsn, pw string) *sql.DB {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if pw != "" {
		u.User = url.UserPassword(u.User.Username(), pw)
	}
	db, err := sql.Open("pgx", u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// turnLine finds the turn line of a sheet the failover test sent.
var turnLine = regexp.MustCompile(`(?m)^turn (\d+)\s*$`)
