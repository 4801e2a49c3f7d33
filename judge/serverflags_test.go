package judge

import (
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
)

// doneOnServer lists the UIDs of the INBOX messages the mail server holds as handled by
// the judge: marked \Seen, or carrying the fetcher's keyword. IMAP keywords are
// case-insensitive and servers need not keep their case (go-imap's memory server, which
// mail.Embedded is, hands "$RallyjudgeDone" back as "$rallyjudgedone"): a test that
// compared the flags case-sensitively saw no keyword ever, and its "not flagged"
// assertion could not fail.
func doneOnServer(t *testing.T, addr, user, pass string) []uint32 {
	t.Helper()
	c := imapLogin(t, addr, user, pass)
	defer c.Close()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.UIDSet
	all.AddRange(1, 0)
	ms, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []uint32
	for _, m := range ms {
		if markedDone(m.Flags) {
			out = append(out, uint32(m.UID))
		}
	}
	return out
}

// markedDone reports whether flags hold a mark the fetcher leaves on handled mail.
func markedDone(flags []imap.Flag) bool {
	for _, f := range flags {
		if strings.EqualFold(string(f), string(imap.FlagSeen)) || strings.EqualFold(string(f), "$RallyjudgeDone") {
			return true
		}
	}
	return false
}

func TestMarkedDone(t *testing.T) {
	for _, tc := range []struct {
		flags []imap.Flag
		want  bool
	}{
		{nil, false},
		{[]imap.Flag{imap.FlagFlagged}, false},
		{[]imap.Flag{imap.FlagSeen}, true},
		{[]imap.Flag{"$rallyjudgedone"}, true},
		{[]imap.Flag{"$RallyjudgeDone"}, true},
		{[]imap.Flag{"$RallyjudgeDone2"}, false},
	} {
		if got := markedDone(tc.flags); got != tc.want {
			t.Errorf("markedDone(%v) = %v, want %v", tc.flags, got, tc.want)
		}
	}
}
