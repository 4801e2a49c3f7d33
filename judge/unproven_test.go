package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestForgedFromOfAPlayerQuotesNothing: mails that carry a player's address in From but
// not the player's secret — a wrong secret, none, a robot the game lacks, commands that
// need no secret, an unreadable sheet — never mail the player a word of them, neither
// subject nor line; the refusals for a wrong secret come as one notice a day that a
// mail claiming to be from them was refused. Before issue 21 a forged From of a player
// mailed the attacker's subject and lines to the player (16 of 40), up to 20 an hour.
func TestForgedFromOfAPlayerQuotesNothing(t *testing.T) {
	j, _, secrets := livenessGame(t, nil)
	const spam = "PILLS"
	bodies := []string{
		"game live\nrobot Alice\nsecret nope-nope-nope\n1: P100 " + spam + "\n",       // a wrong secret
		"robot Alice\nsecret " + secrets["Bob"] + "\n" + spam + " http://evil.test\n", // another robot's secret
		"game live\nrobot Alice\n" + spam + " http://evil.test\n",                     // no secret, errors
		"game live\nrobot " + spam + "\nsecret x\n1: P100\n",                          // no such robot
		"HELP " + spam + "\n" + spam + " http://evil.test\n",                          // a command needing no secret
		"game live\nsecret nope\nSTATUS " + spam + "\n",                               // a command with a wrong secret
		"---\ngame: live\nrobot: Alice\nsecret: nope\nprogram: [" + spam + "\n",       // unreadable YAML
		"JOIN live " + spam + "\nvisit http://evil.test " + spam + "\n",               // JOIN from a player
	}
	uid := uint32(700)
	for round := 0; round < 5; round++ {
		for i, b := range bodies {
			uid++
			raw := rawMail("alice@example.test", fmt.Sprintf("[RR live] %s %d.%d http://evil.test", spam, round, i), b)
			if err := j.HandleMessage(context.Background(), 1, uid, raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, subjects, texts := outboxTo(t, j, "alice@example.test")
	claims := 0
	for i := range texts {
		if strings.Contains(subjects[i], spam) || strings.Contains(subjects[i], "evil") ||
			strings.Contains(texts[i], spam) || strings.Contains(texts[i], "evil.test") {
			t.Errorf("a reply to a forged mail quotes it:\n%s\n%s", subjects[i], texts[i])
		}
		if strings.Contains(texts[i], "claiming to be from this address") {
			claims++
		}
	}
	if claims != 1 {
		t.Errorf("%d notices of a refused mail claiming to be from the player, want 1 a day", claims)
	}
	if n < 2 {
		t.Errorf("%d mails to the player, want the welcome and the notice at least", n)
	}
}

// TestEchoedCommandsAreCleaned: the "> COMMAND" a reply quotes carries no control
// character, bidirectional override or isolate: each is shown as U+FFFD (before issue
// 21 an ESC, a BEL and U+202E went back raw).
func TestEchoedCommandsAreCleaned(t *testing.T) {
	j, _, secrets := livenessGame(t, nil)
	line := "TIMEZONE Europe/\x1b[2JBer\alin\u202eXY\u2066Z"
	raw := rawMail("alice@example.test", "[RR live] zone", "secret "+secrets["Alice"]+"\n"+line+"\n")
	if err := j.HandleMessage(context.Background(), 1, 800, raw); err != nil {
		t.Fatal(err)
	}
	_, _, texts := outboxTo(t, j, "alice@example.test")
	found := false
	for _, tx := range texts {
		if !strings.Contains(tx, "> TIMEZONE") {
			continue
		}
		found = true
		if i := strings.IndexAny(tx, "\x1b\a\u202e\u2066"); i >= 0 {
			t.Errorf("the echo carries %q:\n%q", tx[i:i+1], tx)
		}
		if !strings.Contains(tx, "> TIMEZONE Europe/\uFFFD[2JBer\uFFFDlin\uFFFDXY\uFFFDZ") {
			t.Errorf("the echo does not show the line with each character replaced:\n%s", tx)
		}
	}
	if !found {
		t.Fatalf("no reply echoes the command: %q", texts)
	}
}

// TestUnreadableSheetSaysWhatWasWrong: a YAML sheet that is not valid YAML, with its
// secret, is answered with the YAML error, not "no secret line" (issue 21 item 6).
func TestUnreadableSheetSaysWhatWasWrong(t *testing.T) {
	j, _, secrets := livenessGame(t, nil)
	body := "---\ngame: live\nrobot: Alice\nsecret: " + secrets["Alice"] + "\nregisters: {1: \n"
	if err := j.HandleMessage(context.Background(), 1, 900, rawMail("alice@example.test", "[RR live] orders", body)); err != nil {
		t.Fatal(err)
	}
	_, _, texts := outboxTo(t, j, "alice@example.test")
	if len(texts) < 2 {
		t.Fatalf("no reply: %q", texts)
	}
	reply := texts[len(texts)-1]
	if strings.Contains(reply, "no secret line") || !strings.Contains(reply, "line 5") || !strings.Contains(reply, "not valid YAML") {
		t.Errorf("the reply to a sheet that is not valid YAML does not say so:\n%s", reply)
	}
}
