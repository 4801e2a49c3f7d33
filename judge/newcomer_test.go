package judge

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// STATUS writes the grace as the game master typed it and the settings show it ("grace
// 2h"), not as Go prints a duration (the bug: "Deadline: ... (grace 2h0m0s)").
func TestStatusShowsGraceAsTyped(t *testing.T) {
	f := newJudgeFixture(t)
	f.createGame(GameSpec{Tag: "spring", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test", Grace: 2 * time.Hour,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}})
	_, text := f.send("zoombot@example.test", "[RR spring] status", "secret "+f.secrets["Zoombot"]+"\nSTATUS\n")
	if !strings.Contains(text, "(grace 2h).") || strings.Contains(text, "0m0s") {
		t.Fatalf("STATUS does not show the grace as 2h:\n%s", text)
	}
}

// limits.max_message_bytes is told as the config states it: a limit of 4000 bytes was
// told as "3 KiB" (and one under 1 KiB as "0 KiB").
func TestSizeLimitToldAsConfigured(t *testing.T) {
	f := newFixture(t)
	f.j.MaxMessageBytes = 4000
	_, text := f.send("zoombot@example.test", "[RR spring] big", "STATUS\n"+strings.Repeat("padding padding padding padding padding\n", 200))
	if !strings.Contains(text, "(4000 bytes)") {
		t.Fatalf("the refusal does not give the limit as 4000 bytes:\n%s", text)
	}
	for n, want := range map[int]string{262144: "256 KiB", 4000: "4000 bytes", 500: "500 bytes", 1 << 20: "1024 KiB"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

// A game whose missed orders were played by the autopilot (docs/gamemasters.md creates
// its example game with --missed autopilot) exports, replays and imports, as one played
// under the other policies does. The bug: export wrote "missed":"autopilot" and replay
// and import refused it ("missed: "autopilot" (want powerdown or random)"), so such a
// game could never be replayed or continued.
func TestArchiveOfEveryMissedPolicyReplays(t *testing.T) {
	for _, policy := range []string{"powerdown", "random", "autopilot"} {
		t.Run(policy, func(t *testing.T) {
			f := newFixture(t)
			if _, text := f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\nSET missed "+policy+"\n"); !strings.Contains(text, "missed orders:") {
				t.Fatalf("SET missed %s:\n%s", policy, text)
			}
			f.playTurns(3) // Hulk misses every turn
			a := f.archiveOf("spring")
			if got := a.Turns[1].Orders[2].Missed; got != policy {
				t.Fatalf("turn 1: Hulk's missed orders recorded as %q, want %q", got, policy)
			}
			b := exportReplayImport(t, f, a, 2)
			// and what Read refuses, Write refuses (docs/archive.md): export never
			// writes an archive that does not read
			b.Turns[1].Orders[2].Missed = "shrug"
			if err := rja.Write(&bytes.Buffer{}, b); err == nil || !strings.Contains(err.Error(), `missed: "shrug"`) {
				t.Fatalf("Write took a missed-orders policy Read refuses: %v", err)
			}
		})
	}
}

// The same for a game of the 2023 rules, where a missed round under powerdown shuts the
// robot down (R-MISSED-SHUTDOWN) rather than powering it down as a postal turn does.
func TestArchiveOfEveryMissedPolicyReplays2023(t *testing.T) {
	for _, policy := range []string{"powerdown", "random", "autopilot"} {
		t.Run(policy, func(t *testing.T) {
			f := newFixture2023(t, policy)
			for i := 0; i < 3; i++ { // nobody sends orders: the deadline plays every round
				f.now = f.now.Add(49 * time.Hour)
				if _, err := f.j.Tick(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			a := f.archiveOf("spring")
			if len(a.Turns) < 3 || a.Turns[1].Orders[0].Missed != policy {
				t.Fatalf("%d turns; turn 1 recorded %+v", len(a.Turns), a.Turns[1].Orders[0])
			}
			exportReplayImport(t, f, a, 1)
		})
	}
}

// A turn whose deadline passes while the mailbox is quiet is resolved at the next tick,
// not when the fetcher's IDLE ends (imap.idle_timeout, 5 minutes by default): the judge
// waited for intake to read the mail received before the deadline, and intake, idle,
// looked only when the IDLE timed out (seen with serve against Dovecot: a deadline at
// 12:38 resolved at 12:41:57). Here the IDLE lasts an hour.
func TestDeadlineInAQuietMailboxResolvesAtTheTick(t *testing.T) {
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	j, _, _ := livenessGame(t, nil)
	j.Now = time.Now // the real clock: the fetcher's moment is on it
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		IdleTimeout: time.Hour, PollInterval: time.Hour, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- j.Serve(ctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: &countingSender{}, Tick: 50 * time.Millisecond})
	}()
	defer func() {
		cancel()
		<-done
	}()
	game := func() (g store.Game) {
		_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
			g, _ = tx.GameByTag("live")
			return nil
		})
		return g
	}
	// intake has looked at the (empty) mailbox once, then idles
	waitFor(t, "intake's first look at the mailbox", time.Minute, func() bool { return !fetcher.CaughtUp().IsZero() })
	if err := j.Store.Tx(context.Background(), func(tx *store.Tx) error {
		return tx.SetDeadline(game().ID, time.Now().UTC().Add(300*time.Millisecond))
	}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the deadline to resolve the turn", time.Minute, func() bool { return game().CurrentTurn == 2 })
}

// SET observers no means what the settings then show, "observers: no": those who were
// observing get no more reports nor press to everyone while it holds, and get them
// again after SET observers yes (the bug: only new OBSERVEs were refused).
func TestObserversNoStopsTheObservers(t *testing.T) {
	f := newFixture(t)
	if text := f.joinConfirmed("kibitzer@example.test", "[RR spring] watch", "OBSERVE\n"); !strings.Contains(text, "You now observe game spring") {
		t.Fatalf("OBSERVE: %s", text)
	}
	set := func(v string) {
		t.Helper()
		if _, text := f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\nSET observers "+v+"\n"); !strings.Contains(text, "observers:       "+v) {
			t.Fatalf("SET observers %s:\n%s", v, text)
		}
	}
	toKibitzer := func(kind string) int { return len(f.mailsTo("kibitzer@example.test", kind)) }
	press := func() {
		t.Helper()
		f.send("twonky@example.test", "[RR spring] press", "secret "+f.secrets["Twonky"]+"\nPRESS TO ALL\nHello all.\nENDPRESS\n")
	}
	turn := func() {
		t.Helper()
		f.allSheets()
		if g, _ := f.state(); g.CurrentTurn < 2 {
			t.Fatal("the turn was not resolved")
		}
	}
	set("no")
	reports, pressed := toKibitzer("report"), toKibitzer("press")
	press()
	turn()
	if toKibitzer("report") != reports || toKibitzer("press") != pressed {
		t.Fatalf("with observers no, the observer got %d report(s) and %d press mail(s) more", toKibitzer("report")-reports, toKibitzer("press")-pressed)
	}
	set("yes")
	press()
	if toKibitzer("press") != pressed+1 {
		t.Fatalf("with observers yes again, the observer got %d press mail(s), want 1", toKibitzer("press")-pressed)
	}
}

// missed-limit counts for a player already past it when the game master sets it: with
// on-missed-limit remove the player is withdrawn at the next miss (the bug: only the
// miss that made the count exactly the limit counted, so SET missed-limit 2 on a game
// where Hulk had missed 3 turns withdrew nobody, ever); asked, the game masters hear
// again every missed-limit missed turns.
func TestMissedLimitSetAfterTheMissesCounts(t *testing.T) {
	for _, on := range []string{"remove", "ask"} {
		t.Run(on, func(t *testing.T) {
			f := newFixture(t)
			f.playTurns(3) // Hulk misses turns 1-3
			if p := f.player("spring", "Hulk"); p.Missed != 3 || p.Withdrawn {
				t.Fatalf("Hulk: missed %d, withdrawn %v", p.Missed, p.Withdrawn)
			}
			f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\nSET missed-limit 2\nSET on-missed-limit "+on+"\n")
			asked := func() int {
				n := 0
				for _, m := range f.mailsTo("gm@example.test", "gm-notice") {
					if strings.Contains(m.Subject, "Hulk missed") {
						n++
					}
				}
				return n
			}
			f.playTurns(1) // the 4th miss
			p := f.player("spring", "Hulk")
			switch on {
			case "remove":
				if !p.Withdrawn {
					t.Fatalf("Hulk missed %d turns in a row, the limit is 2, and is not withdrawn", p.Missed)
				}
			case "ask":
				if asked() != 1 {
					t.Fatalf("after the 4th miss with limit 2 the game master was asked %d time(s), want 1", asked())
				}
				f.playTurns(1) // the 5th: not asked again
				if asked() != 1 {
					t.Fatalf("after the 5th miss the game master was asked %d time(s), want 1", asked())
				}
				f.playTurns(1) // the 6th: asked again
				if asked() != 2 {
					t.Fatalf("after the 6th miss the game master was asked %d time(s), want 2", asked())
				}
			}
		})
	}
}

// exportReplayImport writes a as export does, reads it back, replays it and imports it
// as spring-again, kept up to turn from, failing t at the first step
// that does not work; it returns the archive as read back.
func exportReplayImport(t *testing.T, f *fixture, a rja.Archive, from int) rja.Archive {
	t.Helper()
	var buf bytes.Buffer
	if err := rja.Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	b, err := rja.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the exported archive does not read: %v", err)
	}
	if err := rja.Replay(&b, nil, -1, nil); err != nil {
		t.Fatalf("the exported archive does not replay: %v", err)
	}
	if _, err := f.j.ImportGame(context.Background(), &b, ImportSpec{Tag: "spring-again", From: from}); err != nil {
		t.Fatalf("the exported archive does not import: %v", err)
	}
	return b
}
