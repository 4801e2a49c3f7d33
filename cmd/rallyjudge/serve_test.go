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
