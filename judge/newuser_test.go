package judge

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally/demobots"
)

// TestNewUserFollowsThePlayerGuide tries rallyjudge as a new player would: the demo in
// play mode (README's first command, with --play), then the steps of docs/players.md by
// mail against the demo's own servers: LIST, JOIN, the welcome with the first hand, an
// order sheet as the guide writes it, its acknowledgement, the report; then the next
// turn's orders as a reply to the report, written into the sheet the report carries.
func TestNewUserFollowsThePlayerGuide(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two turns by mail")
	}
	ready := make(chan DemoInfo, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	var res DemoResult
	go func() {
		var err error
		res, err = RunDemo(ctx, DemoOptions{Game: demobots.New(demobots.Options{}), Play: true, Turns: 2, Seed: 4, Ready: func(i DemoInfo) { ready <- i }})
		done <- err
	}()
	var info DemoInfo
	select {
	case info = <-ready:
	case err := <-done:
		t.Fatalf("demo stopped: %v", err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: info.SMTPAddr, TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	// send mails a message as the person and returns the judge's answer to it.
	send := func(subject, body string, inReplyTo ...string) *mail.Message {
		t.Helper()
		raw := rawMail(info.Address, subject, body)
		if len(inReplyTo) > 0 {
			raw = rawMail(info.Address, subject, body, "In-Reply-To", "<"+inReplyTo[0]+">")
		}
		if err := sender.Send(ctx, info.Address, []string{info.Judge}, raw); err != nil {
			t.Fatal(err)
		}
		x, _ := mail.Extract(raw)
		return waitMail(t, info, seen, func(m *mail.Message) bool { return m.InReplyTo == x.MessageID })
	}

	// "Ask the judge which games are open: LIST"
	if m := send("games?", "LIST\n"); !strings.Contains(m.Text, info.Game) {
		t.Fatalf("LIST does not show the open game:\n%s", m.Text)
	}
	// "Then join one with the name you want for your robot: JOIN spring Zoombot"
	m := send("join", fmt.Sprintf("JOIN %s Rover\n", info.Game))
	// "The reply carries a code: answer it from the same address with the line it gives,
	// CONFIRM CODE; the reply to that carries your secret."
	cm := confirmCode.FindStringSubmatch(m.Text)
	if cm == nil {
		t.Fatalf("the JOIN reply carries no code to confirm:\n%s", m.Text)
	}
	// Answered as a mail program answers: a reply, the judge's text quoted below.
	m = send("Re: "+m.Subject, "CONFIRM "+cm[1]+"\n\n> "+strings.ReplaceAll(strings.TrimSpace(m.Text), "\n", "\n> ")+"\n", strings.Trim(m.MessageID, "<>"))
	sm := regexp.MustCompile(`secret is:\s*(\S+)`).FindStringSubmatch(m.Text)
	if sm == nil {
		t.Fatalf("the CONFIRM reply carries no secret:\n%s", m.Text)
	}
	secret := sm[1]
	// "When the game master starts the game you get a welcome mail with the course, your
	// robot, your first hand and a ready-to-fill order sheet."
	welcome := waitMail(t, info, seen, func(m *mail.Message) bool { return strings.Contains(m.Subject, "Welcome") })
	hand := handFrom(welcome.Text)
	if len(hand) != 9 || !strings.Contains(welcome.Text, "#orders") {
		t.Fatalf("the welcome lacks the hand or the sheet:\n%s", welcome.Text)
	}
	// A sheet as the guide writes it: between #orders and #end, "N: card" lines.
	sheet := fmt.Sprintf("Hello judge, my first orders.\n\n#orders\ngame %s\nrobot Rover\nturn 1\nsecret %s\n", info.Game, secret)
	for i, c := range hand[:5] {
		sheet += fmt.Sprintf("%d: %s\n", i+1, c)
	}
	sheet += "power down if damage > 4\n#end\n\n-- \nRover's owner\n"
	ack := send(fmt.Sprintf("[RR %s] orders", info.Game), sheet)
	if !strings.Contains(ack.Text, "accepted") || strings.Contains(ack.Text, secret) {
		t.Fatalf("no acknowledgement, or it quotes the secret:\n%s", ack.Text)
	}
	// The report of turn 1, with the new hand and a sheet for turn 2.
	report := waitMail(t, info, seen, func(m *mail.Message) bool { return strings.Contains(m.Subject, "Turn 1 report") })
	hand = handFrom(report.Text)
	if len(hand) < 5 {
		t.Fatalf("the report shows no hand:\n%s", report.Text)
	}
	// "reply to the report, keep the lines from #orders to #end, ... write your secret and
	// a card of your hand after each register's number"; the rest of the report is quoted.
	block := report.Text[strings.Index(report.Text, "\n#orders\n")+1:]
	block = block[:strings.Index(block, "#end")+len("#end")]
	filled := strings.Replace(block, "YOUR-SECRET", secret, 1)
	k := 0
	filled = regexp.MustCompile(`(?m)^([1-5]):\s*$`).ReplaceAllStringFunc(filled, func(line string) string {
		c := hand[k]
		k++
		return strings.TrimSpace(line) + " " + c
	})
	var quoted strings.Builder
	for _, l := range strings.Split(report.Text, "\n") {
		quoted.WriteString("> " + l + "\n")
	}
	ack2 := send("Re: "+report.Subject, filled+"\n\nOn Monday the judge wrote:\n"+quoted.String(), report.MessageID)
	if !strings.Contains(ack2.Text, "accepted") {
		t.Fatalf("the sheet filled in from the report was not accepted:\n--- sheet\n%s\n--- reply\n%s", filled, ack2.Text)
	}
	final := waitMail(t, info, seen, func(m *mail.Message) bool { return strings.Contains(m.Subject, "Turn 2") })
	if !strings.Contains(final.Text, "report for Rover, turn 2") {
		t.Fatalf("the turn 2 report is not Rover's:\n%s", final.Text)
	}
	cancel() // play mode keeps the servers up until interrupted
	// Interrupted while it may still be tidying up: a cancelled context is the way out.
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "context canceled") {
		t.Fatal(err)
	}
	if res.Turns != 2 && res.Winner == "" {
		t.Fatalf("the demo played %d turns", res.Turns)
	}
}

// waitMail waits for a new mail in the person's mailbox that matches.
func waitMail(t *testing.T, info DemoInfo, seen map[string]bool, match func(*mail.Message) bool) *mail.Message {
	t.Helper()
	end := time.Now().Add(60 * time.Second)
	for time.Now().Before(end) {
		for _, raw := range mailboxMessages(t, info.IMAPAddr, info.User, info.Password) {
			m, err := mail.Extract(raw)
			if err != nil || seen[m.MessageID] {
				continue
			}
			if match(m) {
				seen[m.MessageID] = true
				return m
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	var subjects []string
	for _, raw := range mailboxMessages(t, info.IMAPAddr, info.User, info.Password) {
		if m, err := mail.Extract(raw); err == nil {
			subjects = append(subjects, m.Subject+" | "+m.InReplyTo+" | "+strings.SplitN(m.Text, "\n", 2)[0])
		}
	}
	t.Fatalf("the expected mail did not come; the mailbox has:\n%s", strings.Join(subjects, "\n"))
	return nil
}
