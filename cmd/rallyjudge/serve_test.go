package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// TestServeRefusesASecondDaemon: two daemons on one database both sent every mail (4 of
// 25 twice); a second serve is now refused before it reads or sends anything, saying who
// holds the database.
func TestServeRefusesASecondDaemon(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "one.db")
	cfg := filepath.Join(dir, "rallyjudge.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, `database: %s
judge_address: judge@example.test
imap:
  address: 127.0.0.1:1
  tls: plain
  username: judge
  password_env: RJ_TEST_PW
smtp:
  address: 127.0.0.1:1
  tls: none
`, db), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RJ_TEST_PW", "x")
	first, err := store.LockDaemon(db) // the first daemon
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"serve", "--config", cfg}, &stdout, &stderr); code == 0 {
		t.Fatalf("a second serve on the same database ran (exit 0)")
	}
	if !strings.Contains(stderr.String(), "another rallyjudge serve holds this database") || !strings.Contains(stderr.String(), "pid ") {
		t.Errorf("the refusal does not say why and who:\n%s", stderr.String())
	}
}

// TestServeCheck: docs/gamemasters.md says "Check a config without starting", but serve
// with a good config started serving (reading and answering mail). --check checks the
// config, the passwords it names, the templates and the database's directory, and exits
// without opening the database or the network.
func TestServeCheck(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "judge.db")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	conf := func(extra string) string {
		return write("rallyjudge.yaml", fmt.Sprintf(`database: %s
judge_address: judge@example.test
imap:
  address: 127.0.0.1:1
  tls: plain
  username: judge
  password_env: RJ_CHECK_PW
smtp:
  address: 127.0.0.1:1
  tls: none
%s`, db, extra))
	}
	t.Setenv("RJ_CHECK_PW", "x")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"serve", "--config", conf(""), "--check"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), ": ok: judge judge@example.test") {
		t.Fatalf("a good config: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("--check made the database (%v)", err)
	}

	t.Setenv("RJ_CHECK_PW", "")
	os.MkdirAll(filepath.Join(dir, "tmpl"), 0o755)
	write("tmpl/ack.txt.tmpl", "{{.Nope")
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"serve", "--config", conf("templates_dir: " + filepath.Join(dir, "tmpl") + "\n"), "--check"}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("a config whose password is not set and whose template does not parse: exit %d", code)
	}
	for _, want := range []string{"2 problem(s)", "imap password: environment variable RJ_CHECK_PW is empty or not set", "templates_dir: ", "ack.txt.tmpl"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the check does not say %q:\n%s", want, stderr.String())
		}
	}
}
