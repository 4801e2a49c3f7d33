package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// programSheet is a valid sheet for robot in game "live" of turn turn (its program
// chosen by RandomProgram with seed), and that program.
func programSheet(t *testing.T, j *Judge, secrets map[string]string, robot string, seat int, seed int64) (string, string) {
	t.Helper()
	ctx := context.Background()
	var g store.Game
	_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
	var prog string
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		st, _, err := testStateOf(tx, g)
		if err != nil {
			return err
		}
		p := roborally.RandomProgram(j.mustSetup(t, "live"), st, seat, seed, g.CurrentTurn)
		var cards []string
		for _, c := range p {
			cards = append(cards, fmt.Sprintf("P%d", c))
		}
		prog = strings.Join(cards, " ")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", robot, g.CurrentTurn, secrets[robot], prog), prog
}

// playedIn is what the engine played for robot in turn n of game "live".
func playedIn(t *testing.T, j *Judge, n int, robot string) orders.Played {
	t.Helper()
	var out orders.Played
	_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, _ := tx.GameByTag("live")
		tn, err := tx.Turn(g.ID, n)
		if err != nil {
			t.Fatalf("turn %d: %v", n, err)
		}
		var ps []orders.Played
		mustJSON(t, testPlayedJSON(tn), &ps)
		for _, p := range ps {
			if p.Robot == robot {
				out = p
			}
		}
		return nil
	})
	return out
}

// TestSheetCountsByReceiveTime: a sheet the mail server received (INTERNALDATE) before
// the deadline is played although the judge reads it after the deadline has passed:
// the deadline waits for intake (IntakeCaughtUp) and the sheet is taken as any other.
// And one that the judge could read only after its turn was resolved anyway (intake
// stuck past MaxIntakeWait) is neither dropped silently nor played as the next turn's
// program: it is refused, the player is told why, and the operator is told at error
// level. Before issue 14 it was taken as the program for the following turn, written
// without that turn's report.
func TestSheetCountsByReceiveTime(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	rec := &logRecorder{}
	j.Log = rec.logger()
	ctx := context.Background()
	var caughtUp time.Time
	j.IntakeCaughtUp = func() time.Time { return caughtUp }
	game := func() (g store.Game) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
		return g
	}
	deadline := game().DeadlineAt.Add(game().Grace)
	body, prog := programSheet(t, j, secrets, "Alice", 0, 77)

	// The sheet reached the server 30 s before the deadline; the judge is a minute past
	// the deadline and has not read it yet.
	clock.Add(deadline.Sub(clock.Now()) + time.Minute)
	caughtUp = deadline.Add(-time.Minute)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := game().CurrentTurn; n != 1 {
		t.Fatalf("turn resolved (game at turn %d) before intake read the mail received before the deadline", n)
	}
	sheetMail := mail.Fetched{UID: 20, Raw: rawMail("alice@example.test", "[RR live] orders", body), Received: deadline.Add(-30 * time.Second)}
	for _, err := range j.HandleBatch(ctx, 1, []mail.Fetched{sheetMail}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	caughtUp = clock.Now()
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := game().CurrentTurn; n != 2 {
		t.Fatalf("game at turn %d once intake caught up, want 2", n)
	}
	p := playedIn(t, j, 1, "Alice")
	if p.Missed != "" {
		t.Errorf("alice's sheet, received before the deadline and read after it, was missed: %q policy played", p.Missed)
	}
	var got []string
	for _, c := range p.Program {
		got = append(got, fmt.Sprintf("P%d", c))
	}
	if strings.Join(got, " ") != prog {
		t.Errorf("turn 1 played %v for Alice, want her sheet's program %s", got, prog)
	}
	if q := playedIn(t, j, 1, "Bob"); q.Missed == "" {
		t.Errorf("bob sent nothing, but turn 1 has no missed-orders policy for him")
	}

	// Turn 2: intake is stuck, the judge gives up after MaxIntakeWait and resolves; then
	// a sheet without a turn line, received before that, is finally read.
	deadline = game().DeadlineAt.Add(game().Grace)
	body2, _ := programSheet(t, j, secrets, "Bob", 1, 78)
	body2 = strings.Replace(body2, "turn 2\n", "", 1)
	clock.Add(deadline.Sub(clock.Now()) + j.MaxIntakeWait + time.Minute)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := game().CurrentTurn; n != 3 {
		t.Fatalf("game at turn %d after MaxIntakeWait, want 3", n)
	}
	late := mail.Fetched{UID: 21, Raw: rawMail("bob@example.test", "[RR live] orders", body2), Received: deadline.Add(-10 * time.Second)}
	for _, err := range j.HandleBatch(ctx, 1, []mail.Fetched{late}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		vs, err := tx.OrderVersions(game().ID, 3, "Bob")
		if err != nil {
			return err
		}
		if len(vs) != 0 {
			t.Errorf("a sheet written for turn 2 and read after it was stored for turn 3: %d versions", len(vs))
		}
		return nil
	})
	n, _, texts := outboxTo(t, j, "bob@example.test")
	told := false
	for _, s := range texts {
		if strings.Contains(s, "NOT played") && strings.Contains(s, "turn 2") {
			told = true
		}
	}
	if !told {
		t.Errorf("bob was not told his sheet came too late to be read (%d mails to him)", n)
	}
	if !rec.has("level=ERROR") || !rec.has("read only after it") {
		t.Error("no error-level log line for a sheet read after its turn was resolved")
	}
}

// TestBacklogKeepsArrivalTimes: a backlog the judge reads after the deadline, all of it
// received by the mail server before the deadline, counts, and each sheet version keeps
// the time the server received it (IMAP INTERNALDATE), not the time it was read. Alice
// sent two versions; the one she sent later counts although the judge read it first
// (the earlier one was taken up again later, as after a failure). Before, a version
// was stamped with the time it was read and the one read last counted.
func TestBacklogKeepsArrivalTimes(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	ctx := context.Background()
	var caughtUp time.Time
	j.IntakeCaughtUp = func() time.Time { return caughtUp }
	game := func() (g store.Game) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
		return g
	}
	deadline := game().DeadlineAt.Add(game().Grace)
	early, progEarly := programSheet(t, j, secrets, "Alice", 0, 77)
	late, progLate := programSheet(t, j, secrets, "Alice", 0, 79)
	if progEarly == progLate {
		t.Fatalf("test set-up: both of Alice's versions play %s", progLate)
	}
	bob, _ := programSheet(t, j, secrets, "Bob", 1, 78)
	at := func(before time.Duration) time.Time { return deadline.Add(-before).Truncate(time.Second) }
	sent := map[uint32]time.Time{}
	fetched := func(uid uint32, from, body string, received time.Time) mail.Fetched {
		sent[uid] = received
		return mail.Fetched{UID: uid, Raw: rawMail(from, "[RR live] orders", body), Received: received}
	}
	// the server received everything before the deadline; the judge reads it ten minutes after
	var first []mail.Fetched
	for i := range 30 { // Bob's standing orders, again and again: the queue in front
		first = append(first, fetched(uint32(100+i), "bob@example.test",
			fmt.Sprintf("robot Bob\nsecret %s\nif damage > %d then power down\n", secrets["Bob"], 3+i%5), at(50*time.Minute-time.Duration(i)*time.Second)))
	}
	first = append(first, fetched(140, "alice@example.test", late, at(10*time.Minute)))
	second := []mail.Fetched{fetched(130, "alice@example.test", early, at(20*time.Minute)), fetched(141, "bob@example.test", bob, at(5*time.Minute))}
	clock.Add(deadline.Sub(clock.Now()) + 10*time.Minute)
	caughtUp = deadline.Add(-time.Hour)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := game().CurrentTurn; n != 1 {
		t.Fatalf("turn resolved (game at turn %d) before intake read the backlog", n)
	}
	for _, batch := range [][]mail.Fetched{first, second} {
		for _, err := range j.HandleBatch(ctx, 1, batch) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	caughtUp = clock.Now()
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := game().CurrentTurn; n != 2 {
		t.Fatalf("game at turn %d after the backlog was read, want 2", n)
	}
	p := playedIn(t, j, 1, "Alice")
	var got []string
	for _, c := range p.Program {
		got = append(got, fmt.Sprintf("P%d", c))
	}
	if p.Missed != "" || strings.Join(got, " ") != progLate {
		t.Errorf("turn 1 played %v for Alice (missed %q), want the version she sent last: %s (the one she sent first: %s)",
			got, p.Missed, progLate, progEarly)
	}
	if q := playedIn(t, j, 1, "Bob"); q.Missed != "" {
		t.Errorf("bob's sheet, received before the deadline, was missed: %q played", q.Missed)
	}
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		for _, robot := range []string{"Alice", "Bob"} {
			vs, err := tx.OrderVersions(game().ID, 1, robot)
			if err != nil {
				t.Fatal(err)
			}
			if robot == "Alice" && len(vs) != 2 || robot == "Bob" && len(vs) != 31 {
				t.Errorf("%s has %d versions for turn 1", robot, len(vs))
			}
			for _, v := range vs {
				row, err := tx.InboxGet(v.InboxID)
				if err != nil {
					t.Fatal(err)
				}
				if want := sent[row.UID]; !v.Received.Equal(want) {
					t.Errorf("%s's version from uid %d recorded as received %v, want the server's time %v (read at %v)",
						robot, row.UID, v.Received, want, clock.Now())
				}
				if v.Received.After(deadline) {
					t.Errorf("%s's version from uid %d recorded after the deadline", robot, row.UID)
				}
			}
		}
		return nil
	})
}

// TestSheetReceivedAfterDeadlineIsNotPlayed: the converse of TestSheetCountsByReceiveTime
// (issue 14 item 3). A sheet the mail server received after the deadline (plus grace) is
// not played for that turn even when the judge reads it before the clock resolves the
// turn: it is refused, its player told when it arrived and what happens instead, and it
// is not kept for the next turn. A sheet received in time and read at the same moment
// counts. An absent player's sheet may still move the deadline, as the clock would.
func TestSheetReceivedAfterDeadlineIsNotPlayed(t *testing.T) {
	for _, absent := range []bool{false, true} {
		t.Run(fmt.Sprintf("absent=%v", absent), func(t *testing.T) {
			j, clock, secrets := livenessGame(t, nil)
			ctx := context.Background()
			game := func() (g store.Game) {
				_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
				return g
			}
			if absent {
				g := game()
				day := clock.Now().UTC().Format(dateLayout)
				_ = j.Store.Tx(ctx, func(tx *store.Tx) error {
					ps, err := tx.Players(g.ID)
					for _, p := range ps {
						if p.Robot == "Alice" {
							err = tx.SetPlayerAbsence(p.ID, day, clock.Now().Add(48*time.Hour).UTC().Format(dateLayout))
						}
					}
					return err
				})
			}
			deadline := game().DeadlineAt.Add(game().Grace)
			alice, _ := programSheet(t, j, secrets, "Alice", 0, 77)
			bob, bobProg := programSheet(t, j, secrets, "Bob", 1, 78)
			// The judge is a minute past the deadline; the clock has not resolved the turn.
			clock.Add(deadline.Sub(clock.Now()) + time.Minute)
			batch := []mail.Fetched{
				{UID: 30, Raw: rawMail("alice@example.test", "[RR live] orders", alice), Received: deadline.Add(30 * time.Second)},
				{UID: 31, Raw: rawMail("bob@example.test", "[RR live] orders", bob), Received: deadline.Add(-30 * time.Second)},
			}
			for _, err := range j.HandleBatch(ctx, 1, batch) {
				if err != nil {
					t.Fatal(err)
				}
			}
			var versions int
			_ = j.Store.View(ctx, func(tx *store.Tx) error {
				vs, err := tx.OrderVersions(game().ID, 1, "Alice")
				versions = len(vs)
				return err
			})
			_, _, texts := outboxTo(t, j, "alice@example.test")
			told := false
			for _, s := range texts {
				if strings.Contains(s, "after the deadline of turn 1") && strings.Contains(s, "NOT accepted") {
					told = true
				}
			}
			if absent {
				// the deadline waited for the absent Alice: her sheet is in time
				if versions != 1 || told {
					t.Fatalf("absent Alice's sheet: %d versions stored, told late %v; want it taken", versions, told)
				}
				if !game().DeadlineAt.After(deadline) {
					t.Fatalf("the deadline did not move for the absent player")
				}
				return
			}
			if versions != 0 {
				t.Fatalf("a sheet received after the deadline was stored for the turn (%d versions)", versions)
			}
			if !told {
				t.Fatalf("alice was not told her sheet came after the deadline: %q", texts)
			}
			if _, err := j.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if n := game().CurrentTurn; n != 2 {
				t.Fatalf("game at turn %d, want 2", n)
			}
			if p := playedIn(t, j, 1, "Alice"); p.Missed == "" {
				t.Errorf("alice's late sheet was played for turn 1: %v", p.Program)
			}
			p := playedIn(t, j, 1, "Bob")
			var got []string
			for _, c := range p.Program {
				got = append(got, fmt.Sprintf("P%d", c))
			}
			if p.Missed != "" || strings.Join(got, " ") != bobProg {
				t.Errorf("bob's sheet, received in time, was not played: %v (missed %q)", got, p.Missed)
			}
			_ = j.Store.View(ctx, func(tx *store.Tx) error {
				vs, err := tx.OrderVersions(game().ID, 2, "Alice")
				if len(vs) != 0 {
					t.Errorf("the late sheet was kept for turn 2")
				}
				return err
			})
		})
	}
}
