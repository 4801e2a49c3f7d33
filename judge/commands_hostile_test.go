package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// Hostile command mails: what a tester tries against the mail commands from outside.
// Each case is answered with what was wrong and where, changes nothing stored that it
// may not, and mails nobody but the sender (and those the command is for).

// secondGame adds the running game autumn (Alpha, Beta; game master
// other-gm@example.test) beside the fixture's spring and returns its secrets.
func (f *fixture) secondGame() map[string]string {
	f.t.Helper()
	spec := GameSpec{Tag: "autumn", Course: "sprint", Seed: 7, GMEmail: "other-gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alpha", Email: "alpha@example.test"}, {Robot: "Beta", Email: "beta@example.test"}}}
	sec, err := f.j.CreateGame(context.Background(), spec)
	if err != nil {
		f.t.Fatal(err)
	}
	return sec
}

// A command that names another game (JOIN, OBSERVE, UNOBSERVE, STANDBY, NEWSECRET)
// must not carry the commands after it into that game: they were authorised for the
// mail's game, by its secret. The bug: "OBSERVE autumn" then "KICK Alpha" from
// spring's game master kicked autumn's Alpha.
func TestCommandsStayInTheirGame(t *testing.T) {
	for _, tc := range []struct {
		name, from, body string
	}{
		{"observe then kick", "gm@example.test", "secret GM\nOBSERVE autumn\nKICK Alpha\n"},
		{"standby then set", "gm@example.test", "secret GM\nSTANDBY autumn\nSET name Hijacked\n"},
		{"unobserve then pause", "gm@example.test", "secret GM\nUNOBSERVE autumn\nPAUSE\n"},
		{"newsecret then replace", "gm@example.test", "secret GM\nNEWSECRET autumn Alpha\nREPLACE Beta thief@example.test\n"},
		{"join then broadcast", "gm@example.test", "secret GM\nJOIN autumn Sneaky\nBROADCAST hello autumn\n"},
		{"observe then press", "twonky@example.test", "secret TWONKY\nOBSERVE autumn\nPRESS TO ALL\nspam\nENDPRESS\n"},
		{"standby then deadline", "gm@example.test", "secret GM\nSTANDBY autumn\nDEADLINE 2026-03-09 12:00\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.secondGame()
			before, _ := f.game("autumn")
			body := strings.ReplaceAll(strings.ReplaceAll(tc.body, "GM\n", f.secrets[""]+"\n"), "TWONKY", f.secrets["Twonky"])
			f.send(tc.from, "[RR spring] commands", body)
			after, _ := f.game("autumn")
			if after.Name != before.Name || after.Status != before.Status || !after.DeadlineAt.Equal(before.DeadlineAt) {
				t.Errorf("game autumn changed: name %q→%q, status %s→%s, deadline %v→%v",
					before.Name, after.Name, before.Status, after.Status, before.DeadlineAt, after.DeadlineAt)
			}
			for _, p := range f.playersOf("autumn") {
				if p.Withdrawn || p.Email != strings.ToLower(p.Robot)+"@example.test" {
					t.Errorf("autumn's %s changed: %+v", p.Robot, p)
				}
			}
			for _, to := range []string{"alpha@example.test", "beta@example.test", "thief@example.test"} {
				for _, m := range f.mailsTo(to, "") {
					if m.Kind != "welcome" || to == "thief@example.test" {
						t.Errorf("%s got a %s mail %q from spring's commands", to, m.Kind, m.Subject)
					}
				}
			}
		})
	}
}
