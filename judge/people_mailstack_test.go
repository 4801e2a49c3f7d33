package judge

import (
	"strings"
	"testing"
	"time"
)

// TestPeopleThroughRealMail plays issue 13's features by mail through the real mail
// stack (Postfix in, Dovecot out; RALLYJUDGE_MAILSTACK=1): the game master hears of each
// join and gets a summary after the turn and the roster in STATUS; alice writes bob
// anonymous press; bob's WAIT holds the turn until NOWAIT; carol observes; then alice sets
// her time zone, asks WHOGAME and a new secret, and bob announces an absence.
func TestPeopleThroughRealMail(t *testing.T) {
	rm := newRealMail(t, "people.db")
	send, mailWith := rm.send, rm.mailWith
	boss := rm.boss
	expect := func(step, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: lacks %q:\n%s", step, w, text)
			}
		}
	}
	g := "[RR people] "
	expect("create", send("carol", "new", "secret "+boss+"\nCREATE people course=sprint players=2 gm-copies=on\n"), "Game people is created")
	sec := map[string]string{}
	for _, u := range []string{"alice", "bob"} {
		robot := strings.ToUpper(u[:1]) + u[1:]
		text := send(u, "join", "JOIN people "+robot+"\n")
		c := confirmCode.FindStringSubmatch(text)
		if c == nil {
			t.Fatalf("join %s: no code to confirm:\n%s", u, text)
		}
		text = send(u, "join", "CONFIRM "+c[1]+"\n")
		m := secretInText.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("join %s: no secret:\n%s", u, text)
		}
		sec[u] = m[1]
	}
	join, _ := mailWith("carol", "Bob joined")
	expect("join notice", join, "bob@example.test")
	watch := send("carol", g+"watch", "OBSERVE\n") // a code to CONFIRM, as a JOIN's
	if c := confirmCode.FindStringSubmatch(watch); c == nil {
		t.Fatalf("observe: no code to confirm:\n%s", watch)
	} else {
		expect("observe", send("carol", "watch", "CONFIRM "+c[1]+"\n"), "You now observe game people")
	}
	expect("start", send("carol", g+"start", "secret "+boss+"\nSTART\n"), "has started with 2 robots")
	expect("press", send("alice", g+"psst", "secret "+sec["alice"]+"\nPRESS TO Bob ANON\nI will not push you.\nENDPRESS\n"), "went to Bob")
	press, raw := mailWith("bob", "Press from an anonymous player")
	expect("press mail", press, "I will not push you.")
	if strings.Contains(strings.ToLower(string(raw)), "alice") {
		t.Errorf("anonymous press names alice:\n%s", raw)
	}
	expect("wait", send("bob", g+"wait", "secret "+sec["bob"]+"\nWAIT\n"), "waits for its deadline")
	for _, u := range []string{"alice", "bob"} {
		robot := strings.ToUpper(u[:1]) + u[1:]
		hand := handFrom(func() string { s, _ := mailWith(u, "Welcome, "+robot); return s }())
		send(u, g+"orders", "secret "+sec[u]+"\nORDERS\nrobot "+robot+"\n"+strings.Join(hand[:5], " ")+"\n")
	}
	expect("status while waiting", send("carol", g+"status", "secret "+boss+"\nSTATUS\n"), "Turn 1.", "Bob asked to WAIT",
		"Roster (game masters only)", "alice@example.test", "Observers: carol@example.test")
	expect("nowait", send("bob", g+"nowait", "secret "+sec["bob"]+"\nNOWAIT\n"), "as soon as every program is in")
	summary, _ := mailWith("carol", "Turn 1 summary")
	expect("summary", summary, "In:        Alice, Bob")
	mailWith("carol", "Turn 1 report") // the observer's (and the game master's) public report

	// Time, identity and absence by mail (issue 13, items 3, 4 and 6).
	expect("timezone", send("alice", g+"tz", "secret "+sec["alice"]+"\nTIMEZONE Europe/Berlin\n"),
		"Your deadlines are shown in UTC and in Europe/Berlin")
	expect("whogame", send("alice", g+"who", "secret "+sec["alice"]+"\nWHOGAME\n"), "Game people", "Bob", "bob@example.test")
	first := time.Now().UTC().AddDate(0, 0, 2).Format("2006-01-02")
	last := time.Now().UTC().AddDate(0, 0, 4).Format("2006-01-02")
	expect("absent", send("bob", g+"away", "secret "+sec["bob"]+"\nABSENT "+first+" "+last+"\n"),
		"Noted: you are away from "+first+" to "+last)
	expect("newsecret", send("alice", "lost it", "NEWSECRET people Alice\n"), "is on its way there")
}
