package scenario

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const scenarioDir = "../testdata/scenarios"

func scenarioFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.scn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 120 {
		t.Errorf("%d scenarios, want at least 120", len(files))
	}
	return files
}

func runJSON(t *testing.T, s *Scenario) ([]byte, *Result) {
	t.Helper()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return b, res
}

// TestScenarios runs every scenario, checks its expectations, and resolves it twice
// more (once with GOMAXPROCS=1) to check the JSON is byte-identical.
func TestScenarios(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".scn"), func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if s.Source == "" || s.Title == "" {
				t.Errorf("%s: every scenario needs a title: and a source: line", f)
			}
			first, res := runJSON(t, s)
			for _, d := range s.Check(res) {
				t.Error(d)
			}
			second, _ := runJSON(t, s)
			if !bytes.Equal(first, second) {
				t.Errorf("resolved twice, the JSON differs")
			}
			old := runtime.GOMAXPROCS(1)
			third, _ := runJSON(t, s)
			runtime.GOMAXPROCS(old)
			if !bytes.Equal(first, third) {
				t.Errorf("under GOMAXPROCS=1 the JSON differs")
			}
		})
	}
}
