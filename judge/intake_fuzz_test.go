package judge

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
)

// FuzzRead: the judge's reading of any mail never panics, keeps the mail's line numbers
// (the sheet's text has the lines of the player's text, and every problem names one of
// them), and never prints a secret it read.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../mail/testdata/clients/*.eml")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("From: a@b.test\r\n\r\nsecret s3cr3t-value\r\nSTATUS\r\nORDERS\r\nP490 x\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := mail.ExtractWithLimits(raw, mail.Limits{MaxSize: 64 << 10, MaxText: 16 << 10})
		if err != nil {
			return
		}
		r := Read(m, testReader)
		if r.Sheet == nil {
			return
		}
		n := strings.Count(r.Text, "\n")
		if strings.Count(r.SheetText, "\n") != n {
			t.Fatalf("the sheet's text has %d lines, the player's %d", strings.Count(r.SheetText, "\n"), n)
		}
		if se, ok := r.SheetErr.(game.SheetError); ok {
			for _, p := range se.SheetProblems() {
				if p.Line > n+1 {
					t.Fatalf("a problem on line %d of %d", p.Line, n)
				}
			}
		}
		var b bytes.Buffer
		r.Describe(&b)
		if s := r.Sheet.Secret; s != "" {
			for _, l := range strings.Split(b.String(), "\n") {
				if m := secretLine.FindStringSubmatch(strings.TrimLeft(l, " |0123456789")); m != nil && m[1] == s {
					t.Fatalf("the secret is printed: %q", l)
				}
			}
		}
	})
}
