package judge

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestEndToEndWithDovecotAndPostfix plays a three-player game through the real mail
// stack: each player reads its hand from its latest report in its own Dovecot mailbox,
// mails a sheet through Postfix; the judge reads the sheets from Dovecot, resolves three
// turns and mails the reports back through Postfix. Afterwards every player's mailbox
// holds its welcome and its three reports, each with that player's hand and no other.
func TestEndToEndWithDovecotAndPostfix(t *testing.T) {
	imapAddr, smtpAddr := needMailstack(t)
	players := []struct{ robot, user, pass string }{
		{"Alice", "alice", "alicepw"}, {"Bob", "bob", "bobpw"}, {"Carol", "carol", "carolpw"},
	}
	for _, u := range []struct{ user, pass string }{{"orders", "orderspw"}, {"alice", "alicepw"}, {"bob", "bobpw"}, {"carol", "carolpw"}} {
		clearMailbox(t, imapAddr, u.user, u.pass)
	}
	st, err := store.OpenWith(filepath.Join(t.TempDir(), "e2e.db"), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the judge stops (cleanups run last first)
	j, err := New(st, "orders@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	spec := GameSpec{Tag: "e2e", Settings: map[string]string{"course": "sprint"}, Seed: 11, GMEmail: "orders@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, p := range players {
		spec.Players = append(spec.Players, PlayerSpec{Robot: p.robot, Email: p.user + "@example.test"})
	}
	ctx := context.Background()
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	sender := serveOnMailstack(t, j, imapAddr, smtpAddr)

	const turns = 3
	for turn := 1; turn <= turns; turn++ {
		for _, p := range players {
			// The player's client: the newest game mail in its mailbox gives its hand.
			hand := waitForHand(t, imapAddr, p.user, p.pass, turn)
			sheet := fmt.Sprintf("#orders\nrobot %s\nturn %d\nsecret %s\n%s\n#end\n", p.robot, turn, secrets[p.robot], strings.Join(hand, " "))
			raw := rawMail(p.user+"@example.test", fmt.Sprintf("[RR e2e] turn %d", turn), sheet)
			if err := sender.Send(ctx, p.user+"@example.test", []string{"orders@example.test"}, raw); err != nil {
				t.Fatal(err)
			}
		}
		waitForTurn(t, st, "e2e", turn+1, 60*time.Second)
	}
	// Let the last reports arrive, then read every mailbox.
	for _, p := range players {
		waitForHand(t, imapAddr, p.user, p.pass, turns+1)
	}
	var history []store.Turn
	_ = st.View(ctx, func(tx *store.Tx) error {
		g, _ := tx.GameByTag("e2e")
		for n := 0; n <= turns; n++ {
			tn, err := tx.Turn(g.ID, n)
			if err != nil {
				return err
			}
			history = append(history, tn)
		}
		return nil
	})
	if len(history) != turns+1 {
		t.Fatalf("%d turns stored, want %d", len(history), turns+1)
	}
	for seat, p := range players {
		msgs := mailboxMessages(t, imapAddr, p.user, p.pass)
		reports := map[int]*mail.Message{}
		for _, raw := range msgs {
			m, err := mail.Extract(raw)
			if err != nil {
				t.Fatal(err)
			}
			if n, ok := reportTurn(m.Subject); ok {
				if reports[n] != nil {
					t.Errorf("%s: report of turn %d twice", p.user, n)
				}
				reports[n] = m
			}
		}
		for n := 0; n <= turns; n++ {
			m := reports[n]
			if m == nil {
				t.Errorf("%s: no report of turn %d", p.user, n)
				continue
			}
			var after adjudicator.State
			mustJSON(t, testAfterJSON(history[n]), &after)
			want := cardsOf(after.Robots[seat].Hand)
			got := handFrom(m.Text)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s turn %d: report shows hand %v, want %v", p.user, n, got, want)
			}
		}
	}
}

var reportSubject = regexp.MustCompile(`Turn (\d+) report|Welcome`)

func reportTurn(subject string) (int, bool) {
	m := reportSubject.FindStringSubmatch(subject)
	if m == nil {
		return 0, false
	}
	if m[1] == "" {
		return 0, true
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n, true
}

var handCard = regexp.MustCompile(`(?m)^  P(\d+) `)

func handFrom(text string) []string {
	h := handSection(text)
	var out []string
	for _, m := range handCard.FindAllStringSubmatch(h, -1) {
		out = append(out, "P"+m[1])
	}
	return out
}

func cardsOf(hand []int) []string {
	s := append([]int(nil), hand...)
	sort.Ints(s)
	var out []string
	for _, c := range s {
		out = append(out, fmt.Sprintf("P%d", c))
	}
	return out
}

// waitForHand waits for the game mail that opens turn (the welcome for turn 1, else the
// report of turn-1) and returns the first five cards of its hand.
func waitForHand(t *testing.T, addr, user, pass string, turn int) []string {
	t.Helper()
	end := time.Now().Add(60 * time.Second)
	for time.Now().Before(end) {
		for _, raw := range mailboxMessages(t, addr, user, pass) {
			m, err := mail.Extract(raw)
			if err != nil {
				continue
			}
			if n, ok := reportTurn(m.Subject); ok && n == turn-1 {
				h := handFrom(m.Text)
				if len(h) > 5 {
					h = h[:5]
				}
				return h
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s: no mail opening turn %d arrived", user, turn)
	return nil
}

func waitForTurn(t *testing.T, st *store.Store, tag string, turn int, limit time.Duration) {
	t.Helper()
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		var g store.Game
		_ = st.View(context.Background(), func(tx *store.Tx) error {
			var err error
			g, err = tx.GameByTag(tag)
			return err
		})
		if g.CurrentTurn >= turn {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("game %s did not reach turn %d within %v", tag, turn, limit)
}
