package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "rallyjudge ") || !strings.Contains(out.String(), "rallyjudge/") {
		t.Errorf("version printed %q", out.String())
	}
	if code := run([]string{"version", "extra"}, &out, &errb); code != 2 {
		t.Errorf("version with an argument: exit %d, want 2", code)
	}
}

// The release build stamps the version it is given (Makefile, target release). The
// test links with the same -X flag but without -trimpath, which would rebuild every
// package (minutes) rather than only link.
func TestReleaseBuildStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "rallyjudge")
	cmd := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7-test", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "rallyjudge v9.8.7-test ") {
		t.Errorf("the stamped binary says %q", out)
	}
}
