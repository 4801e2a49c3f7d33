package mail

import (
	"context"
	"strings"
	"testing"
)

func TestValidAddress(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"alice@example.test", true},
		{"a.b+tag@mail.example.org", true},
		{"o'hara@example.ie", true},
		{"", false},
		{"alice", false},
		{"alice@localhost", false},
		{"@example.test", false},
		{"alice@", false},
		{"Alice <alice@example.test>", false},
		{"<alice@example.test>", false},
		{"alice@example.test NOTIFY=SUCCESS,FAILURE ORCPT=rfc822;spy@evil.test", false},
		{"alice@example.test\r\nRCPT TO:<spy@evil.test>", false},
		{"a b@example.test", false},
		{"alice@exa_mple.test", false},
		{"alice@-example.test", false},
		{".alice@example.test", false},
		{"al..ice@example.test", false},
		{"\"quoted\"@example.test", false},
		{"alice@example.test,bob@example.test", false},
		{"älice@example.test", false},
		{strings.Repeat("a", 65) + "@example.test", false},
	} {
		if got := ValidAddress(tc.in); got != tc.want {
			t.Errorf("ValidAddress(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSendRefusesAnAddressThatIsNotOne: text that is not an address never reaches MAIL
// FROM or RCPT TO; the refusal is permanent and needs no server (none listens here).
func TestSendRefusesAnAddressThatIsNotOne(t *testing.T) {
	s, err := NewSender(SenderConfig{Addr: "127.0.0.1:1", TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to string }{
		{"judge@example.test", "victim@example.test NOTIFY=SUCCESS ORCPT=rfc822;spy@evil.test"},
		{"judge@example.test SIZE=1", "alice@example.test"},
	} {
		err := s.Send(context.Background(), tc.from, []string{tc.to}, []byte("Subject: x\r\n\r\nx\r\n"))
		if err == nil || !IsPermanent(err) || !strings.Contains(err.Error(), "not an address") {
			t.Errorf("Send(%q → %q): %v, want a permanent refusal", tc.from, tc.to, err)
		}
	}
}
