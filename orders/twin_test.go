package orders

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestYAMLTwins: every plain-text example (testdata/examples/*.txt, and every sheet in
// testdata/sheets that has a .yaml of the same name) has a YAML twin that compiles to
// the identical structured orders.
func TestYAMLTwins(t *testing.T) {
	examples, _ := filepath.Glob("testdata/examples/*.txt")
	sheets, _ := filepath.Glob("testdata/sheets/*.txt")
	if len(examples) < 5 {
		t.Fatalf("only %d examples", len(examples))
	}
	pairs := 0
	for _, f := range append(examples, sheets...) {
		twin := strings.TrimSuffix(f, ".txt") + ".yaml"
		if _, err := os.Stat(twin); err != nil {
			if strings.Contains(f, "examples") {
				t.Errorf("%s has no YAML twin %s", f, twin)
			}
			continue
		}
		pairs++
		t.Run(filepath.Base(f), func(t *testing.T) {
			a, b := compiled(t, f), compiled(t, twin)
			if !bytes.Equal(a, b) {
				t.Errorf("%s and its twin differ:\n%s\n%s", f, a, b)
			}
		})
	}
	if pairs < 8 {
		t.Errorf("only %d twin pairs", pairs)
	}
}

func compiled(t *testing.T, path string) []byte {
	t.Helper()
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(in)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
