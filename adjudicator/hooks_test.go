package adjudicator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every hook interface (an interface whose methods are handed a View, other than the
// deciders) has its bit in hooksOf: a hook point asks only the robots whose effects act
// there, so a hook missing from hooksOf would never be asked.
func TestHooksOfCoversEveryHook(t *testing.T) {
	src, err := os.ReadFile("effects.go")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "func hooksOf(")
	end := strings.Index(string(src)[start:], "\n}\n")
	body := string(src)[start : start+end]
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			it, ok := ts.Type.(*ast.InterfaceType)
			if !ok || strings.HasSuffix(ts.Name.Name, "Decider") {
				return false
			}
			for _, m := range it.Methods.List {
				fn, ok := m.Type.(*ast.FuncType)
				if !ok || len(fn.Params.List) == 0 {
					continue
				}
				if id, ok := fn.Params.List[0].Type.(*ast.Ident); ok && id.Name == "View" {
					found++
					if !strings.Contains(body, "e.("+ts.Name.Name+")") {
						t.Errorf("%s: hook interface %s has no bit in hooksOf", f, ts.Name.Name)
					}
					break
				}
			}
			return false
		})
	}
	if found < 20 {
		t.Fatalf("found %d hook interfaces; the parse is wrong", found)
	}
}

// The effect table NewSetup makes serves the same effects, in the same order, as the
// long way (a Setup whose Effects were replaced): the options turn plays the same.
func TestEffectTableMatchesLongWay(t *testing.T) {
	s, st, orders := benchGame(t)
	cards := append(DealtOptions(DeckCrashBurn), DealtOptions(DeckArmedDangerous)...)
	for i := range st.Robots {
		for k := 0; k < 3; k++ {
			st.Robots[i].Options = append(st.Robots[i].Options, cards[(5*i+3*k)%len(cards)])
		}
	}
	if s.effectTable() == nil {
		t.Fatal("NewSetup made no effect table")
	}
	want, wantEv, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	long := *s
	long.Effects = append([]Effect(nil), s.Effects...) // another slice: the table no longer serves
	if long.effectTable() != nil {
		t.Fatal("the table serves a replaced Effects slice")
	}
	got, gotEv, err := Resolve(&long, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, got) != mustJSON(t, want) || mustJSON(t, gotEv) != mustJSON(t, wantEv) {
		t.Fatal("the effect table and the long way played differently")
	}
	uses := 0
	for _, e := range wantEv {
		if e.Option != "" {
			uses++
		}
	}
	if uses == 0 {
		t.Fatal("no option acted in the turn: the comparison tests nothing")
	}
}
