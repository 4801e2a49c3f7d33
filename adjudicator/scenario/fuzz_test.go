package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any text either parses into a scenario that runs, or is an error; never a
// panic.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(scenarioDir, "*.scn"))
	for i, p := range files {
		if i%8 != 0 {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("title: x\nboard:\n  f1 .\nrobot A at 0,0\nexpect A: at 0,0\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse("fuzz.scn", text)
		if err != nil {
			return
		}
		res, err := s.Run()
		if err != nil {
			return
		}
		s.Check(res)
		if _, err := res.JSON(); err != nil {
			t.Fatal(err)
		}
	})
}
