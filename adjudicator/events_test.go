package adjudicator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every Ev* constant of events.go is in EventKinds, so a scenario may expect it.
func TestEventKindsComplete(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		vs, ok := x.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Ev") || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		kind, _ := strconv.Unquote(lit.Value)
		n++
		if !slices.Contains(EventKinds, kind) {
			t.Errorf("%s (%q) is not in EventKinds", vs.Names[0].Name, kind)
		}
		return true
	})
	if n != len(EventKinds) {
		t.Errorf("%d Ev constants, %d EventKinds", n, len(EventKinds))
	}
}
