package judge

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// cbc is a Crash by Crash game played by mail in the judge's fixture.
type cbc struct {
	f   *fixture
	tag string
}

func newCBC(t *testing.T, players ...string) *cbc {
	f := newJudgeFixture(t)
	cfg := []byte(`{"players":2}`)
	if len(players) == 4 {
		cfg = []byte(`{"players":4}`)
	}
	f.createGame(GameSpec{Tag: "cbc", Kind: "crash-by-crash", Seed: 7, Config: cfg, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}}, players...)
	// the players here write many mails fast: no loop guard
	f.j.Replies.LoopMails, f.j.Replies.LoopSubjects, f.j.Replies.PerKnown = 1<<30, 1<<30, 1<<30
	return &cbc{f: f, tag: "cbc"}
}

// state is the game row, its players and the position.
func (c *cbc) state() (store.Game, []store.Player, hosted) {
	c.f.t.Helper()
	var g store.Game
	var ps []store.Player
	var h hosted
	err := c.f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag(c.tag); err != nil {
			return err
		}
		if ps, err = tx.Players(g.ID); err != nil {
			return err
		}
		k, err := c.f.j.hostedKind(g)
		if err != nil {
			return err
		}
		h, err = c.f.j.hostedState(tx, g, k)
		return err
	})
	if err != nil {
		c.f.t.Fatal(err)
	}
	return g, ps, h
}

// mover is the player to move.
func (c *cbc) mover() store.Player {
	_, ps, h := c.state()
	due := h.pos.Due()
	if len(due) == 0 {
		c.f.t.Fatal("nobody to move")
	}
	return *playerAt(ps, due[0])
}

// botText is the autopilot's move for the seat to move, as text.
func (c *cbc) botText() string {
	_, _, h := c.state()
	return h.pos.Autopilot(h.pos.Due()[0], 0).Text
}

// move mails body as p's move (the envelope added) and returns the reply.
func (c *cbc) move(p store.Player, body string) string {
	c.f.t.Helper()
	g, _, _ := c.state()
	_, text := c.f.send(p.Email, fmt.Sprintf("[RR %s] turn %d", c.tag, g.CurrentTurn),
		fmt.Sprintf("game %s\nplayer %s\nsecret %s\nturn %d\n%s", c.tag, p.Robot, c.f.secrets[p.Robot], g.CurrentTurn, body))
	return text
}

// playBots plays n moves as the bot would, by mail.
func (c *cbc) playBots(n int) {
	for i := 0; i < n; i++ {
		p := c.mover()
		txt := c.move(p, c.botText())
		if !strings.Contains(txt, "is accepted") {
			c.f.t.Fatalf("the bot's move by mail refused:\n%s", txt)
		}
	}
}

// toPlay plays the set-up by the bot's moves.
func (c *cbc) toPlay() {
	for {
		_, _, h := c.state()
		if !strings.Contains(h.pos.Report(-1, nil).Subject, "places a car") {
			return
		}
		c.playBots(1)
	}
}

// raw mails body as it is from p and returns the reply.
func (c *cbc) raw(p store.Player, body string) string {
	c.f.t.Helper()
	g, _, _ := c.state()
	body = strings.NewReplacer("SECRET", c.f.secrets[p.Robot], "TURN", fmt.Sprint(g.CurrentTurn), "NAME", p.Robot).Replace(body)
	c.f.deliver(rawMail(p.Email, fmt.Sprintf("[RR %s] turn %d", c.tag, g.CurrentTurn), body))
	row := c.f.inboxStatus(c.f.uid)
	for _, m := range c.f.outbox() {
		if m.MessageID == c.f.j.replyID(row.ID) || m.MessageID == c.f.j.noticeID("cmd", row.ID) {
			x, err := mail.Extract(m.Raw)
			if err != nil {
				c.f.t.Fatal(err)
			}
			return x.Text
		}
	}
	return fmt.Sprintf("(no reply: inbox %s: %s)", row.Status, row.Note)
}

func trunc(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func (c *cbc) gm(cmd string) string {
	_, text := c.f.send("gm@example.test", "[RR cbc] gm", "secret "+c.f.secrets[""]+"\n"+cmd+"\n")
	return text
}

func (c *cbc) tick(h int) {
	c.f.now = c.f.now.Add(time.Duration(h) * time.Hour)
	if _, err := c.f.j.Tick(context.Background()); err != nil {
		c.f.t.Fatal(err)
	}
}

// REPLACE of a player of a running hosted game failed inside ("course \"\": no shipped
// course"): the take-over welcome read RoboRally's state. The new player gets the seat's
// report and a secret, and plays with it.
func TestHostedReplaceGivesTheSeatToANewPlayer(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	m := c.mover()
	text := c.gm("REPLACE " + m.Robot + " new@example.test")
	mustContain(t, "REPLACE", text, m.Robot+" is now played from new@example.test")
	ws := c.f.mailsTo("new@example.test", "welcome")
	if len(ws) != 1 {
		t.Fatalf("%d welcomes to the new player", len(ws))
	}
	w := textOf(t, ws[0])
	mustContain(t, "the take-over welcome", w, "You take over "+m.Robot+" in game cbc: Crash by Crash", "Your secret is: ", "Your cards (", "Your move is due by")
	sec := regexp.MustCompile(`(?m)^Your secret is: (\S+)$`).FindStringSubmatch(w)
	if sec == nil {
		t.Fatalf("no secret in the welcome:\n%s", w)
	}
	c.f.secrets[m.Robot] = sec[1]
	m.Email = "new@example.test"
	mustContain(t, "the new player's move", c.move(m, c.botText()), "is accepted")
}

// A withdrawn player's seat held the game up: when its move came due after another
// player's, the judge waited for the deadline (48 hours a move) instead of letting the
// autopilot play it at once.
func TestHostedWithdrawnSeatIsPlayedAtOnce(t *testing.T) {
	c := newCBC(t, "Ann", "Bob", "Cid", "Dee")
	c.toPlay()
	_, ps, _ := c.state()
	m := c.mover()
	next := *playerAt(ps, (m.Seat+1)%4)
	_, text := c.f.send(next.Email, "[RR cbc] bye", "secret "+c.f.secrets[next.Robot]+"\nWITHDRAW\n")
	mustContain(t, "WITHDRAW", text, "the game's autopilot plays "+next.Robot+"'s moves")
	g, _, _ := c.state()
	before := len(c.f.mailsTo(next.Email, "report"))
	mustContain(t, "the move before the withdrawn seat's", c.move(m, c.botText()), "is accepted")
	g2, _, _ := c.state()
	if got := c.mover(); got.Robot == next.Robot || g2.CurrentTurn != g.CurrentTurn+2 {
		t.Fatalf("after %s's move: turn %d, %s to move; want turn %d, the withdrawn %s's move played by the autopilot",
			m.Robot, g2.CurrentTurn, got.Robot, g.CurrentTurn+2, next.Robot)
	}
	if n := len(c.f.mailsTo(next.Email, "report")); n != before {
		t.Errorf("the withdrawn player had %d more reports", n-before)
	}
}

// A move between markers with a greeting above and thanks below: the greeting was read
// as the move ("line 1: "Hi": an action starts with ..."). And an envelope above the
// markers was answered with RoboRally's order grammar ("expected an order (power down,
// ...), got "place""), which is no help to a Crash by Crash player.
func TestHostedMoveBetweenMarkers(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	env := "game cbc\nplayer NAME\nsecret SECRET\nturn TURN\n"
	text := c.raw(p, "Hi judge,\n\nhere is my move.\n#orders\n"+env+c.botText()+"\n#end\n\nThanks, and place A1 for luck\n")
	mustContain(t, "a move between markers", text, "is accepted")
	p = c.mover()
	text = c.raw(p, env+"#orders\n"+c.botText()+"\n#end\n")
	mustContain(t, "an envelope above the markers", text, "has no secret line", "secret is on line 3, outside them")
	for _, bad := range []string{"expected an order", "power down", "option card"} {
		if strings.Contains(text, bad) {
			t.Errorf("the reply speaks RoboRally's grammar (%q):\n%s", bad, text)
		}
	}
}

// 100 KB of moves: the reply said "Your sheet has no secret line" (it had one); it says
// the sheet is too large and nothing was read or stored.
func TestHostedHugeMoveSaysItIsTooLarge(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	g, _, before := c.state()
	text := c.raw(p, "game cbc\nplayer NAME\nsecret SECRET\nturn TURN\n"+strings.Repeat("place A1\n", 12000))
	mustContain(t, "a 100 KB move", text, "larger than 65536 bytes", "nothing was done")
	if strings.Contains(text, "no secret line") {
		t.Errorf("the reply says the sheet has no secret line:\n%s", text)
	}
	g2, _, after := c.state()
	b1, _ := before.pos.Encode()
	b2, _ := after.pos.Encode()
	if g2.CurrentTurn != g.CurrentTurn || string(b1) != string(b2) {
		t.Errorf("the game moved on")
	}
}

// A move written as mail is written: "Hi judge," above it, in plain text or in an
// HTML-only mail (with a signature and a quote below). The greeting was read as the
// move's first action ("line 1: "Hi": an action starts with ...").
func TestHostedMoveUnderAGreeting(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	mustContain(t, "a plain-text move under a greeting", c.raw(p, "Hi judge,\n\ngame cbc\nplayer NAME\nsecret SECRET\nturn TURN\n"+c.botText()+"\nThanks, NAME\n"), "is accepted")
	p = c.mover()
	g, _, _ := c.state()
	html := fmt.Sprintf("<html><body><div>Hello,</div><div>game cbc<br>player %s<br>secret %s<br>turn %d<br>%s</div><div>-- <br>%s</div>"+
		"<blockquote>place A1</blockquote></body></html>", p.Robot, c.f.secrets[p.Robot], g.CurrentTurn,
		strings.ReplaceAll(strings.TrimSpace(c.botText()), "\n", "<br>"), p.Robot)
	c.f.deliver([]byte("From: " + p.Email + "\r\nTo: judge@example.test\r\nSubject: [RR cbc] move\r\nMessage-ID: <html-move@client.test>\r\n" +
		"Date: Sun, 1 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n"))
	_, text := c.f.reply(c.f.uid)
	mustContain(t, "a move in an HTML-only mail", text, "is accepted")
}

// LIST showed a hosted game with RoboRally's rules ("option cards: crash-burn; rules:
// postal with hand_size=0 destroy_at=0 ..."), read from the game's own settings; WAIT
// answered "Turn 9 waits for its deadline, even when every program is in" and the move
// was played at once all the same.
func TestHostedListAndWaitSpeakOfTheGame(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	_, text := c.f.send(p.Email, "[RR cbc] list", "LIST\n")
	mustContain(t, "LIST", text, "Crash by Crash, two players", "the game's autopilot plays the move")
	for _, bad := range []string{"option cards", "postal", "hand_size"} {
		if strings.Contains(text, bad) {
			t.Errorf("LIST of a Crash by Crash game speaks of RoboRally (%q):\n%s", bad, text)
		}
	}
	_, text = c.f.send(p.Email, "[RR cbc] wait", "secret "+c.f.secrets[p.Robot]+"\nWAIT\n")
	mustContain(t, "WAIT", text, "Not done", "played as soon as the moves it waits for are in")
	g, _, _ := c.state()
	mustContain(t, "the move after WAIT", c.move(p, c.botText()), "is accepted")
	if g2, _, _ := c.state(); g2.CurrentTurn != g.CurrentTurn+1 {
		t.Errorf("turn %d after the move, want %d", g2.CurrentTurn, g.CurrentTurn+1)
	}
}

// A move sent while the game master has paused the game was answered "Every move of this
// turn is in: the turn is played now, and the report follows", and nothing was played
// until RESUME.
func TestHostedMoveWhilePaused(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	mustContain(t, "PAUSE", c.gm("PAUSE"), "is paused")
	g, _, _ := c.state()
	text := c.move(p, c.botText())
	mustContain(t, "a move while paused", text, "is accepted", "The game is paused: the turn is played when the game master resumes it")
	if strings.Contains(text, "the turn is played now") {
		t.Errorf("the reply to a move while paused says it is played now:\n%s", text)
	}
	if g2, _, _ := c.state(); g2.CurrentTurn != g.CurrentTurn {
		t.Fatalf("a move was played while paused")
	}
	mustContain(t, "RESUME", c.gm("RESUME"), "every move for turn", "is resolved now")
	if g3, _, _ := c.state(); g3.CurrentTurn != g.CurrentTurn+1 {
		t.Errorf("RESUME did not play the move that was in: turn %d", g3.CurrentTurn)
	}
}

// "pass  # nothing is legal" was blanked as a password line ("pass" is one of the names
// of the secret), so the move lost an action.
func TestEnvelopeLinesKeepsAPassWithAComment(t *testing.T) {
	in := "game demo\nplayer Boris\npass s3cret\nplace C5\npass   # nothing else is legal\n"
	want := "\n\n\nplace C5\npass   # nothing else is legal\n"
	if got := (roborally.Kind{}).MoveLines(in); got != want {
		t.Errorf("envelopeLines(%q) = %q, want %q", in, got, want)
	}
}

// REPLACE gave a seat of a hosted game to an address that plays another seat of it: in
// the team game Ann, given her partner Cid's seat, read both hands (JOIN refuses a
// second seat to one address).
func TestHostedReplaceRefusesAnAddressThatHasASeat(t *testing.T) {
	c := newCBC(t, "Ann", "Bob", "Cid", "Dee")
	before := c.f.player("cbc", "Cid")
	mustContain(t, "REPLACE to a seated address", c.gm("REPLACE Cid ann@example.test"), "Not done", "ann@example.test already plays Ann")
	if after := c.f.player("cbc", "Cid"); after.Email != before.Email || after.SecretHash != before.SecretHash {
		t.Errorf("Cid's seat changed: %s -> %s", before.Email, after.Email)
	}
	if n := len(c.f.mailsTo("ann@example.test", "welcome")); n != 1 {
		t.Errorf("Ann has %d welcomes, want her own only", n)
	}
}

// ROLLBACK of a turn whose player had sent a valid move played that same move again at
// once: the game master could not undo a move, though the players were told "you may
// send new ones; the turn will be resolved again. The deadline is ...". The turn now
// waits for a new move, or the deadline, when the kept move stands.
func TestHostedRollbackLetsThePlayerMoveAgain(t *testing.T) {
	c := newCBC(t, "Ann", "Bob")
	c.toPlay()
	p := c.mover()
	g, _, before := c.state()
	mustContain(t, "the move", c.move(p, c.botText()), "is accepted")
	mustContain(t, "ROLLBACK", c.gm("ROLLBACK"), "Turn "+strconv.Itoa(g.CurrentTurn)+" is rolled back")
	g2, _, after := c.state()
	b1, _ := before.pos.Encode()
	b2, _ := after.pos.Encode()
	if g2.CurrentTurn != g.CurrentTurn || string(b1) != string(b2) {
		t.Fatalf("after ROLLBACK: turn %d (want %d, the rolled-back turn waiting for a move)", g2.CurrentTurn, g.CurrentTurn)
	}
	// a move sent now is played
	mustContain(t, "a new move", c.move(p, c.botText()), "is accepted", "the turn is played now")
	if g3, _, _ := c.state(); g3.CurrentTurn != g.CurrentTurn+1 {
		t.Fatalf("the new move was not played: turn %d", g3.CurrentTurn)
	}
	// and the deadline plays a kept move: roll back again, send nothing
	mustContain(t, "ROLLBACK", c.gm("ROLLBACK"), "is rolled back")
	c.f.now = c.f.now.Add(49 * time.Hour)
	if _, err := c.f.j.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	g4, ps, _ := c.state()
	if g4.CurrentTurn != g.CurrentTurn+1 {
		t.Fatalf("the deadline did not play the kept move: turn %d", g4.CurrentTurn)
	}
	if pl := playerAt(ps, p.Seat); pl.Missed != 0 {
		t.Errorf("the kept move counted as missed (%d)", pl.Missed)
	}
}

// A hosted game's mails are read on a phone, as its reports are (game.Report: at most 72
// columns): the ack's "Every move of this turn is in: ..." was 78 columns, a refusal's
// list of cells next to a car 150, the game master's summary a move a line of 120.
func TestHostedMailsFitAPhone(t *testing.T) {
	c := newCBC(t, "Bartholomew_Longname", "Maximilianus-Second")
	c.toPlay()
	p := c.mover()
	c.move(p, "place A1\npass\n")
	c.playBots(2)
	for i := 0; i < 60; i++ {
		if g, _, _ := c.state(); g.Status == store.GameOver {
			break
		}
		c.f.now = c.f.now.Add(49 * time.Hour)
		if _, err := c.f.j.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	kinds := map[string]int{}
	for _, m := range c.f.outbox() {
		switch m.Kind {
		case "ack", "reject", "report", "missed", "final", "welcome":
		default:
			continue
		}
		kinds[m.Kind]++
		for i, l := range strings.Split(textOf(t, m), "\n") {
			if n := utf8.RuneCountInString(l); n > 72 {
				t.Errorf("%s to %s, line %d: %d columns: %q", m.Kind, m.To, i+1, n, l)
			}
		}
	}
	for _, k := range []string{"ack", "reject", "report", "missed", "final"} {
		if kinds[k] == 0 {
			t.Errorf("no %s mail was checked (%v)", k, kinds)
		}
	}
}
