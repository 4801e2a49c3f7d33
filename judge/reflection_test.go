package judge

import (
	"context"
	"fmt"
	"testing"
)

// TestReplyLimitsEachRule checks each reply rule of reflection.go on its own, the others
// set out of the way, so that each can be seen to bind (TestReflection checks them
// together, where one rule can hide another): replies to one stranger, to one player's
// address, to the strangers of one domain; and the two loop rules without RFC 3834 headers —
// the mails from one correspondent whatever their subjects, and the mails with one
// subject.
func TestReplyLimitsEachRule(t *testing.T) {
	const sent = 40
	open := ReplyLimits{PerStranger: 1000, PerKnown: 1000, PerDomain: 1000, LoopMails: 1000, LoopSubjects: 1000}
	for _, tc := range []struct {
		name    string
		set     func(l *ReplyLimits)
		from    func(i int) string
		subject func(i int) string
		to      string // whose replies are counted; "" sums over every sender
		want    int
	}{
		{"per stranger", func(l *ReplyLimits) { l.PerStranger = 3 },
			func(int) string { return "victim@elsewhere.test" }, func(i int) string { return fmt.Sprintf("help %d", i) }, "victim@elsewhere.test", 3},
		{"per player's address", func(l *ReplyLimits) { l.PerKnown = 7 },
			func(int) string { return "alice@example.test" }, func(i int) string { return fmt.Sprintf("help %d", i) }, "alice@example.test", 7},
		{"strangers of one domain", func(l *ReplyLimits) { l.PerDomain = 9 },
			func(i int) string { return fmt.Sprintf("v%d@elsewhere.test", i) }, func(int) string { return "help" }, "", 9},
		{"mails from one correspondent, every subject new", func(l *ReplyLimits) { l.LoopMails = 11 },
			func(int) string { return "alice@example.test" }, func(i int) string { return fmt.Sprintf("Re: Re: your mail %d", i) }, "alice@example.test", 11},
		{"mails with one subject", func(l *ReplyLimits) { l.LoopSubjects = 4 },
			func(int) string { return "alice@example.test" }, func(int) string { return "Out of office" }, "alice@example.test", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, _, _ := livenessGame(t, nil)
			lim := open
			lim.Window = DefaultReplyLimits().Window
			tc.set(&lim)
			j.Replies = lim
			count := func() int {
				n := 0
				for i := 0; i < sent; i++ {
					if tc.to == "" || tc.from(i) == tc.to {
						k, _, _ := outboxTo(t, j, tc.from(i))
						n += k
						if tc.to != "" {
							return k
						}
					}
				}
				return n
			}
			before := count()
			for i := 0; i < sent; i++ {
				if err := j.HandleMessage(context.Background(), 1, uint32(7000+i), rawMail(tc.from(i), tc.subject(i), "HELP\n")); err != nil {
					t.Fatal(err)
				}
			}
			if got := count() - before; got != tc.want {
				t.Errorf("%d mails: %d replies, want %d (the rule's limit)", sent, got, tc.want)
			}
		})
	}
}
