package judge

import (
	"strings"
	"testing"
)

// TestInvisibleCharactersInCommandMails: a command mail pasted from a web page or typed
// in a web client carries zero-width spaces and no-break spaces; "\u200bsecret ..." was
// no header line and "\u200bSTATUS" no command, so the mail was read as an order sheet
// ("expected an order, got STATUS") and the secret line was quoted back.
func TestInvisibleCharactersInCommandMails(t *testing.T) {
	tests := []struct {
		name, body string
		cmds       string // the verbs read, "" for a sheet
		secret     string
	}{
		{"zero-width space before secret", "\u200bsecret abcd-efgh-jkmn-pqrs\nSTATUS\n", "STATUS", "abcd-efgh-jkmn-pqrs"},
		{"zero-width space inside the secret", "secret abcd\u200b-efgh-jkmn-pqrs\nSTATUS\n", "STATUS", "abcd-efgh-jkmn-pqrs"},
		{"zero-width space before the verb", "secret abcd-efgh-jkmn-pqrs\n\u200bSTATUS\n", "STATUS", "abcd-efgh-jkmn-pqrs"},
		{"byte-order mark before the verb", "\ufeffLIST\n", "LIST", ""},
		{"no-break spaces", "secret\u00a0abcd-efgh-jkmn-pqrs\nABSENT\u00a02026-03-10\u00a02026-03-12\n", "ABSENT", "abcd-efgh-jkmn-pqrs"},
		{"word joiner and soft hyphen", "\u2060sec\u00adret abcd-efgh-jkmn-pqrs\nWAIT\n", "WAIT", "abcd-efgh-jkmn-pqrs"},
		{"narrow no-break space in a sheet stays a sheet", "secret abcd-efgh-jkmn-pqrs\n1:\u202fP490\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm, ok := parseCommandMail(tt.body, testReader)
			if tt.cmds == "" {
				if ok && len(cm.cmds) > 0 {
					t.Fatalf("read as commands %v", cm.cmds)
				}
				return
			}
			if !ok {
				t.Fatal("read as a sheet")
			}
			var verbs []string
			for _, c := range cm.cmds {
				verbs = append(verbs, c.Verb)
			}
			if strings.Join(verbs, " ") != tt.cmds || cm.secret != tt.secret || len(cm.unknown) != 0 {
				t.Errorf("commands %v, secret %q, unknown %v", verbs, cm.secret, cm.unknown)
			}
		})
	}
}
