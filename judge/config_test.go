package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const goodConfig = `
database: /tmp/x.db
judge_address: judge@example.test
imap:
  address: 127.0.0.1:1143
  tls: plain
  username: orders
  password_env: RJ_IMAP
smtp:
  address: 127.0.0.1:2525
  tls: none
tick_interval: 5s
`

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("good.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	if c.TickInterval.D() != 5*time.Second || c.IMAP.Mailbox != "INBOX" || c.Limits.MaxMessageBytes != 256<<10 {
		t.Fatalf("defaults or values wrong: %+v", c)
	}
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", goodConfig + "colour: red\n", "colour: unknown key (line 13)"},
		{"password in file", strings.Replace(goodConfig, "password_env: RJ_IMAP", "password: hunter2", 1), "imap.password: unknown key (line 8)"},
		{"bad tls", strings.Replace(goodConfig, "tls: plain", "tls: maybe", 1), `imap.tls: "maybe" is not one of`},
		{"bad duration", strings.Replace(goodConfig, "tick_interval: 5s", "tick_interval: soon", 1), "not a duration"},
		{"missing address", strings.Replace(goodConfig, "judge_address: judge@example.test", "", 1), "judge_address is required"},
		// judge_address is the From and the SMTP sender of every mail: checked at start, not
		// found when every mail fails to go out (the bug: serve took anything)
		{"judge address with a name", strings.Replace(goodConfig, "judge_address: judge@example.test", `judge_address: "Robo Judge <judge@example.test>"`, 1), "judge_address: not one plain mail address; want local@domain, without a name, <> or a list. The name shown in From goes in judge_name."},
		{"judge address without a domain", strings.Replace(goodConfig, "judge_address: judge@example.test", "judge_address: orders", 1), "judge_address: not one plain mail address"},
		{"judge address two", strings.Replace(goodConfig, "judge_address: judge@example.test", "judge_address: a@example.test, b@example.test", 1), "judge_address: not one plain mail address"},
		{"judge address no dot", strings.Replace(goodConfig, "judge_address: judge@example.test", "judge_address: judge@localhost", 1), "judge_address: not an address an SMTP server takes as the sender"},
		// PostgreSQL: the password is never in the DSN, and a SQLite file takes none
		{"password in the dsn", strings.Replace(goodConfig, "database: /tmp/x.db", "database: postgres://rj:hunter2@127.0.0.1/rj", 1), "database: the DSN holds a password"},
		{"password in the dsn query", strings.Replace(goodConfig, "database: /tmp/x.db", "database: postgres://rj@127.0.0.1/rj?password=hunter2", 1), "database: the DSN holds a password"},
		{"database password for sqlite", goodConfig + "database_password_env: RJ_DB\n", "only for a postgres:// database"},
		{"judge address line break", strings.Replace(goodConfig, "judge_address: judge@example.test", `judge_address: "judge@example.test\nBcc: x@example.org"`, 1), "judge_address: in the address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("c.yaml", []byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatal("an error echoed a password")
			}
		})
	}
}

func TestSecret(t *testing.T) {
	env := map[string]string{"PW": "s3cret"}
	if v, err := Secret("PW", "", func(k string) string { return env[k] }); err != nil || v != "s3cret" {
		t.Fatalf("env: %q %v", v, err)
	}
	if _, err := Secret("NOPE", "", func(k string) string { return env[k] }); err == nil {
		t.Fatal("an unset variable must be an error")
	}
	f := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(f, []byte("filepw\nignored\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, err := Secret("", f, nil); err != nil || v != "filepw" {
		t.Fatalf("file: %q %v", v, err)
	}
	dir := filepath.Dir(f)
	if v, err := Secret("", "${CREDENTIALS_DIRECTORY}/pw", func(k string) string { return map[string]string{"CREDENTIALS_DIRECTORY": dir}[k] }); err != nil || v != "filepw" {
		t.Fatalf("file with ${CREDENTIALS_DIRECTORY}: %q %v", v, err)
	}
}

// A misspelt key is named as the file writes it, with a hint, and every problem of the
// file is listed at once (the bug: "field usernme not found in type judge.IMAPConfig",
// and the other problems hidden).
func TestConfigErrorsNameKeysAndListAll(t *testing.T) {
	bad := strings.NewReplacer("username: orders", "usernme: orders", "tick_interval: 5s", "tick_interval: soon",
		"tls: none", "tls: sometimes").Replace(goodConfig) + "limits:\n  max_message_bytes: lots\n"
	_, err := ParseConfig("c.yaml", []byte(bad))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"imap.usernme: unknown key (line 7); did you mean imap.username?",
		"tick_interval (line 12): \"soon\" is not a duration",
		`limits.max_message_bytes (line 14): "lots" is not a whole number`,
		`smtp.tls: "sometimes" is not one of`,
		"imap.username is required",
		"5 problem(s)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "judge.") || strings.Contains(err.Error(), "IMAPConfig") {
		t.Errorf("the error names Go types:\n%v", err)
	}
}
