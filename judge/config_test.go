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
		{"unknown key", goodConfig + "colour: red\n", "field colour not found"},
		{"password in file", strings.Replace(goodConfig, "password_env: RJ_IMAP", "password: hunter2", 1), "field password not found"},
		{"bad tls", strings.Replace(goodConfig, "tls: plain", "tls: maybe", 1), `imap.tls: "maybe" is not one of`},
		{"bad duration", strings.Replace(goodConfig, "tick_interval: 5s", "tick_interval: soon", 1), "not a duration"},
		{"missing address", strings.Replace(goodConfig, "judge_address: judge@example.test", "", 1), "judge_address is required"},
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
