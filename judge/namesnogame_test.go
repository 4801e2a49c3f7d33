package judge

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The judge names no game (issue 20): no non-test file of package judge imports a
// game's engine, its order sheets, its autopilot or its pictures; a game reaches the
// judge only through package game (the envelope of every mail's sheet too:
// game.MailReader).
func TestJudgeImportsNoGame(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	games := []string{"adjudicator", "orders", "roborally", "crashbycrash", "autopilot", "picture"}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rest, ok := strings.CutPrefix(path, "github.com/rallyjudge/rallyjudge/")
			if !ok {
				continue
			}
			for _, g := range games {
				if rest == g || strings.HasPrefix(rest, g+"/") {
					t.Errorf("%s imports %s: the judge reaches a game only through package game", name, path)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no file of package judge read")
	}
}
