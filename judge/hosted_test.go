package judge

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/game/gametest"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge hosts a game it knows only through the game seam: gametest.Nim, played in
// turn, from CREATE to the last move, by mail; a missed move is the game's autopilot's.
func TestHostedGameByMail(t *testing.T) {
	f := newJudgeFixture(t)
	f.j.Games = game.Catalog{gametest.Nim{}}
	boss := f.addServerGM("boss@example.test")
	_, text := f.send("boss@example.test", "new", "secret "+boss+"\nCREATE pile game=nim pile=6 players=2 deadline=24h\n")
	mustContain(t, "the CREATE reply", text, "Game pile is created", "Nim, a pile of 6, 2 players")

	_, text = f.send("boss@example.test", "new", "secret "+boss+"\nCREATE bad game=chess\n")
	mustContain(t, "CREATE of a game not hosted", text, "no such game", "nim")
	_, text = f.send("boss@example.test", "new", "secret "+boss+"\nCREATE bad2 game=nim pile=lots\n")
	mustContain(t, "CREATE with a bad setting", text, "pile", "want a number")

	secrets := map[string]string{}
	secretRE := regexp.MustCompile(`(?m)^Your secret is: (\S+)$`)
	for _, name := range []string{"Ann", "Bob"} {
		f.joinConfirmed(strings.ToLower(name)+"@example.test", "join", "JOIN pile "+name+"\n")
	}
	_, text = f.send("boss@example.test", "start", "game pile\nsecret "+boss+"\nSTART\n")
	mustContain(t, "the START reply", text, "has started")
	for _, name := range []string{"Ann", "Bob"} {
		ws := f.mailsTo(strings.ToLower(name)+"@example.test", "welcome")
		if len(ws) != 1 {
			t.Fatalf("%s has %d welcomes", name, len(ws))
		}
		w := textOf(t, ws[0])
		mustContain(t, name+"'s welcome", w, "6 counters left", "Nim")
		mustContain(t, name+"'s welcome", w, "the secret sent to you when you joined")
	}
	for _, p := range f.playersOf("pile") {
		secrets[p.Robot] = ""
	}
	// the JOIN replies gave the secrets
	for name := range secrets {
		for _, m := range f.mailsTo(strings.ToLower(name)+"@example.test", "") {
			if s := secretRE.FindStringSubmatch(textOf(t, m)); s != nil {
				secrets[name] = s[1]
			}
		}
		if secrets[name] == "" {
			t.Fatalf("no secret for %s in its mail", name)
		}
	}
	toMove := func() (string, int) {
		var g store.Game
		var due []int
		err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
			var err error
			if g, err = tx.GameByTag("pile"); err != nil {
				return err
			}
			k, _ := f.j.hostedKind(g)
			h, err := f.j.hostedState(tx, g, k)
			if err != nil {
				return err
			}
			due = h.pos.Due()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			return "", g.CurrentTurn
		}
		return f.playersOf("pile")[due[0]].Robot, g.CurrentTurn
	}
	mover, turn := toMove()
	other := map[string]string{"Ann": "Bob", "Bob": "Ann"}[mover]

	// not your move: refused, nothing played
	_, text = f.send(strings.ToLower(other)+"@example.test", "[RR pile] move", "game pile\nplayer "+other+"\nsecret "+secrets[other]+"\ntake 1\n")
	mustContain(t, "a move out of turn", text, "NOT accepted", "not your move")
	// a bad move: the line and what is wrong
	_, text = f.send(strings.ToLower(mover)+"@example.test", "[RR pile] move", "game pile\nplayer "+mover+"\nsecret "+secrets[mover]+"\ntake 9\n")
	mustContain(t, "a bad move", text, "NOT accepted", "line 4, column 6", "take 1, 2 or 3")
	if _, t2 := toMove(); t2 != turn {
		t.Fatalf("a refused move was played")
	}
	_, text = f.send(strings.ToLower(mover)+"@example.test", "[RR pile] status", "secret "+secrets[mover]+"\nSTATUS\n")
	mustContain(t, "STATUS", text, "Game pile, Nim: running", mover+"", "to move: waiting for the move", "Standings")
	// a good move is played at once: it was the only one due
	_, text = f.send(strings.ToLower(mover)+"@example.test", "[RR pile] move", "game pile\nplayer "+mover+"\nsecret "+secrets[mover]+"\nturn "+strconv.Itoa(turn)+"\ntake 2\n")
	mustContain(t, "a good move", text, "accepted", "take 2", "4 would be left")
	next, t2 := toMove()
	if t2 != turn+1 || next != other {
		t.Fatalf("after the move: turn %d, %s to move; want turn %d, %s", t2, next, turn+1, other)
	}
	reps := f.mailsTo(strings.ToLower(other)+"@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%s has %d reports, want 1", other, len(reps))
	}
	mustContain(t, "the report", textOf(t, reps[0]), mover+" took 2", "4 counters left", "Your move is due")

	// a reminder before the deadline (24h, the default leads are 24h and 2h): it says
	// what the autopilot does, in the game's words
	f.now = f.now.Add(23 * time.Hour)
	if _, err := f.j.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	rem := f.mailsTo(strings.ToLower(other)+"@example.test", "reminder")
	if len(rem) != 1 {
		t.Fatalf("%s has %d reminders, want 1", other, len(rem))
	}
	mustContain(t, "the reminder", textOf(t, rem[0]), "the game's autopilot plays a move for you")
	if strings.Contains(textOf(t, rem[0]), "robot") {
		t.Errorf("the reminder of a hosted game speaks of robots:\n%s", textOf(t, rem[0]))
	}
	f.now = f.now.Add(-23 * time.Hour)
	// the deadline passes: the autopilot takes 4 mod 4 → 1... then the game goes on
	f.now = f.now.Add(25 * time.Hour)
	if _, err := f.j.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, t3 := toMove(); t3 != turn+2 {
		t.Fatalf("the deadline played no move: turn %d", t3)
	}
	mustContain(t, "the missed-move notice", textOf(t, f.mailsTo(strings.ToLower(other)+"@example.test", "missed")[0]), "autopilot played")
	// play it out by deadlines: the game ends, and is over
	for i := 0; i < 10; i++ {
		f.now = f.now.Add(25 * time.Hour)
		if _, err := f.j.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var g store.Game
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) (err error) { g, err = tx.GameByTag("pile"); return err })
	if g.Status != store.GameOver {
		t.Fatalf("game status %s after the last counter, want over", g.Status)
	}
	finals := f.mailsTo("ann@example.test", "final")
	if len(finals) != 1 {
		t.Fatalf("Ann has %d game-over mails, want 1", len(finals))
	}
	mustContain(t, "the game-over mail", textOf(t, finals[0]), "Nim, is over", "1. ", "took the last counter", "Turn 1, "+mover+": take 2")
	_, text = f.send("ann@example.test", "[RR pile] history", "secret "+secrets["Ann"]+"\nHISTORY\n")
	mustContain(t, "HISTORY", text, "Game pile, Nim.", "Turn 1 (", mover+": take 2", "(autopilot)")
	_, text = f.send("ann@example.test", "[RR pile] replay", "secret "+secrets["Ann"]+"\nHISTORY REPLAY\n")
	mustContain(t, "HISTORY REPLAY", text, "replay page of game pile")
	if rs := f.mailsTo("ann@example.test", "replay"); len(rs) != 1 {
		t.Errorf("%d replay mails, want 1", len(rs))
	}
	// the game's archive replays bit for bit
	var h archive.Hosted
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) (err error) { h, err = archive.HostedFromStore(tx, g.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if err := archive.ReplayHosted(&h, f.j.Games, nil); err != nil {
		t.Fatalf("the archive of the game played by mail does not replay: %v", err)
	}
	if len(h.Turns) != g.CurrentTurn || h.Turns[1].Moves[0].Move.Text != "take 2" || !h.Turns[2].Moves[0].Missed {
		t.Errorf("archive turns %+v", h.Turns)
	}
}

// The demo of a hosted game: bots mail their moves through the in-process servers and
// the judge plays the game to its end.
func TestHostedDemoPlaysToTheEnd(t *testing.T) {
	var out strings.Builder
	res, err := RunHostedDemo(context.Background(), HostedDemoOptions{Game: "nim", Settings: map[string]string{"pile": "9"},
		Seed: 3, Out: &out, Games: game.Catalog{gametest.Nim{}}, SaveMail: t.TempDir()})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !res.Over || len(res.Standings) != 2 || !strings.Contains(res.Standings[0], "took the last counter") {
		t.Fatalf("the demo did not play Nim to its end: %+v\n%s", res, out.String())
	}
	// every move is a turn; each turn mails both players a report
	if res.Turns < 3 || res.Reports < 2*res.Turns {
		t.Errorf("%d turns, %d reports:\n%s", res.Turns, res.Reports, out.String())
	}
}

func TestEnvelopeLinesKeepsTheMove(t *testing.T) {
	in := "game demo\nPlayer: Boris\nturn 4\npass: s3cret\n#orders\noperator J3 J2\npass\n#end\n"
	want := "\n\n\n\n\noperator J3 J2\npass\n\n"
	if got := (roborally.Kind{}).MoveLines(in); got != want {
		t.Errorf("envelopeLines(%q) = %q, want %q", in, got, want)
	}
}

// A game master's PROCESS plays a hosted game's turn now (the autopilot for the missing
// move, the missed count up); ROLLBACK voids it and puts the count back.
func TestHostedProcessAndRollback(t *testing.T) {
	f := newJudgeFixture(t)
	f.j.Games = game.Catalog{gametest.Nim{}}
	f.createGame(GameSpec{Tag: "pile", Kind: "nim", Seed: 1, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}, "Ann", "Bob")
	gmSecret := f.secrets[""]
	turnOf := func() (store.Game, []store.Player) {
		var g store.Game
		var ps []store.Player
		_ = f.j.Store.View(context.Background(), func(tx *store.Tx) (err error) {
			if g, err = tx.GameByTag("pile"); err != nil {
				return err
			}
			ps, err = tx.Players(g.ID)
			return err
		})
		return g, ps
	}
	_, text := f.send("gm@example.test", "[RR pile] go", "secret "+gmSecret+"\nPROCESS\n")
	mustContain(t, "PROCESS", text, "> PROCESS")
	g, ps := turnOf()
	missed := 0
	for _, p := range ps {
		missed += p.Missed
	}
	if g.CurrentTurn != 2 || missed != 1 {
		t.Fatalf("after PROCESS: turn %d, %d missed; want turn 2, 1 missed", g.CurrentTurn, missed)
	}
	_, text = f.send("gm@example.test", "[RR pile] undo", "secret "+gmSecret+"\nROLLBACK\n")
	mustContain(t, "ROLLBACK", text, "Turn 1 is rolled back")
	g, ps = turnOf()
	missed = 0
	for _, p := range ps {
		missed += p.Missed
	}
	if missed != 0 {
		t.Errorf("after ROLLBACK: %d missed, want 0 (the count goes back)", missed)
	}
	_ = g
}
