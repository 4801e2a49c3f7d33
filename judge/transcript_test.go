package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A transcript is a golden file of what a test saw, in order: each reply, report, state
// and summary under a name, compared with the one recorded at its place. The RoboRally
// transcripts under testdata/transcripts were recorded when the judge still had its own
// RoboRally path beside the seam and the two answered the same byte for byte (the tests
// compared them mail by mail, then): they hold RoboRally's mails, replies and states as
// players of it by mail have always had them. `go test ./judge/ -run TEST -update`
// records a test's transcript anew; review its diff before committing it.
type transcript struct {
	t    testing.TB
	path string
	want []transcribed
	got  []transcribed
}

type transcribed struct{ what, text string }

// transcriptMark begins each entry's line in the file: "@@@ what".
const transcriptMark = "@@@ "

// newTranscript reads the test's transcript (testdata/transcripts/NAME.txt, NAME the
// test's name with its subtests) and checks at the test's end that every entry
// recorded was seen.
func newTranscript(t testing.TB) *transcript {
	t.Helper()
	name := strings.NewReplacer("/", "__", " ", "_").Replace(t.Name())
	tr := &transcript{t: t, path: filepath.Join("testdata", "transcripts", name+".txt")}
	if !*updateGolden {
		b, err := os.ReadFile(tr.path)
		if err != nil {
			t.Fatalf("%v (go test ./judge/ -run '%s' -update records it)", err, t.Name())
		}
		tr.want = readTranscript(string(b))
	}
	t.Cleanup(tr.finish)
	return tr
}

func readTranscript(s string) []transcribed {
	var out []transcribed
	// each entry ends in a newline, which the next entry's mark takes
	for _, part := range strings.Split("\n"+strings.TrimSuffix(s, "\n"), "\n"+transcriptMark)[1:] {
		what, text, _ := strings.Cut(part, "\n")
		out = append(out, transcribed{what, text})
	}
	return out
}

// see records got under what and returns what the transcript recorded at its place
// (got itself while recording).
func (tr *transcript) see(what, got string) string {
	tr.t.Helper()
	what = strings.ReplaceAll(what, "\n", " ")
	i := len(tr.got)
	tr.got = append(tr.got, transcribed{what, got})
	switch {
	case *updateGolden:
		return got
	case i >= len(tr.want):
		tr.t.Errorf("entry %d (%s) is not in %s", i+1, what, tr.path)
		return got
	case tr.want[i].what != what:
		tr.t.Errorf("entry %d of %s is %q, but the test saw %q here", i+1, tr.path, tr.want[i].what, what)
	}
	return tr.want[i].text
}

// same records got under what and reports where it differs from the transcript.
func (tr *transcript) same(what, got string) {
	tr.t.Helper()
	if want := tr.see(what, got); want != got {
		tr.t.Errorf("%s differs from %s:\n%s", what, tr.path, lineDiff(want, got))
	}
}

func (tr *transcript) finish() {
	if *updateGolden {
		var b strings.Builder
		for _, e := range tr.got {
			fmt.Fprintf(&b, "%s%s\n%s\n", transcriptMark, e.what, e.text)
		}
		if err := os.MkdirAll(filepath.Dir(tr.path), 0o755); err != nil {
			tr.t.Fatal(err)
		}
		if err := os.WriteFile(tr.path, []byte(b.String()), 0o644); err != nil {
			tr.t.Fatal(err)
		}
		return
	}
	if !tr.t.Failed() && len(tr.got) != len(tr.want) {
		tr.t.Errorf("the test saw %d entries of the %d in %s", len(tr.got), len(tr.want), tr.path)
	}
}

// digest is b's SHA-256 in hex and its length, for bytes a transcript keeps as such
// (pictures, HTML, states).
func digest(b []byte) string {
	h := sha256.Sum256(b)
	return fmt.Sprintf("%d bytes, sha256 %s", len(b), hex.EncodeToString(h[:]))
}
