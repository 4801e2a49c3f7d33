package orders

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The first-word tables (actionForms) must name exactly the words the guarded cases of
// the switch ask for first: a word missing from a table would never reach the case that
// reads it (a form lost), a word too many only costs time. The cases are read from
// lang.go itself: in each case guarded by "m&BIT != 0 && (...)", the first word of every
// p.is and p.accept call with a literal word (but those under a "!", which rule a form
// out) must be in actionForms[BIT], and every word there must be asked for.
func TestActionStartsMatchForms(t *testing.T) {
	checkFirstWords(t, "parseAction", "m", actionForms, map[string]uint32{
		"aGadget": aGadget, "aPowerDown": aPowerDown, "aStayDown": aStayDown, "aPowerUp": aPowerUp, "aRepair": aRepair,
		"aPreferRepair": aPreferRepair, "aPreferOption": aPreferOption, "aBuy": aBuy, "aDrawUpgrade": aDrawUpgrade,
		"aInstall": aInstall, "aTakeOption": aTakeOption, "aFace": aFace, "aPrevent": aPrevent, "aDiscard": aDiscard,
		"aSwap": aSwap, "aKeepArchive": aKeepArchive, "aMoveArchive": aMoveArchive, "aLose": aLose,
		"aKeepOptions": aKeepOptions, "aKeepOption": aKeepOption, "aGive": aGive, "aDecline": aDecline, "aUse": aUse,
		"aRecharge": aRecharge, "aNothing": aNothing,
	}, 1)
}

// checkFirstWords reads function fn of lang.go and checks each case of its switches
// guarded by "mask&BIT != 0 && (...)" against table[bits[BIT]]; unguarded cases
// may number at most unguarded (the catch-alls after the table's forms).
func checkFirstWords(t *testing.T, fn, mask string, table map[uint32][]string, bits map[string]uint32, unguarded int) {
	t.Helper()
	fs := gotoken.NewFileSet()
	f, err := goparser.ParseFile(fs, "lang.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var body *ast.BlockStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn {
			body = fd.Body
		}
	}
	if body == nil {
		t.Fatalf("no func %s in lang.go", fn)
	}
	seen := map[uint32]bool{}
	free := 0
	ast.Inspect(body, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag != nil {
			return true
		}
		for _, s := range sw.Body.List {
			cc := s.(*ast.CaseClause)
			if len(cc.List) == 0 {
				continue // default
			}
			name, forms, ok := guardOf(cc.List, mask)
			if !ok {
				free++
				continue
			}
			bit, ok := bits[name]
			if !ok {
				t.Errorf("%s: case guarded by unknown %s", fs.Position(cc.Pos()), name)
				continue
			}
			seen[bit] = true
			asked := firstWordsAsked(forms)
			for _, w := range asked {
				if !slices.Contains(table[bit], w) {
					t.Errorf("%s (%s): %q starts a form but is not in the table: the form is never tried", fs.Position(cc.Pos()), name, w)
				}
			}
			for _, w := range table[bit] {
				if !slices.Contains(asked, w) {
					t.Errorf("%s (%s): %q is in the table but starts no form", fs.Position(cc.Pos()), name, w)
				}
			}
		}
		return true
	})
	for name, bit := range bits {
		if !seen[bit] {
			t.Errorf("%s guards no case of %s", name, fn)
		}
	}
	if free > unguarded {
		t.Errorf("%s: %d cases without a first-word guard, want at most %d", fn, free, unguarded)
	}
}

// guardOf splits "mask&BIT != 0 && (forms)" into BIT and forms.
func guardOf(list []ast.Expr, mask string) (string, ast.Expr, bool) {
	if len(list) != 1 {
		return "", nil, false
	}
	and, ok := list[0].(*ast.BinaryExpr)
	if !ok || and.Op != gotoken.LAND {
		return "", nil, false
	}
	ne, ok := and.X.(*ast.BinaryExpr)
	if !ok || ne.Op != gotoken.NEQ {
		return "", nil, false
	}
	bits, ok := ne.X.(*ast.BinaryExpr)
	if !ok || bits.Op != gotoken.AND {
		return "", nil, false
	}
	if id, ok := bits.X.(*ast.Ident); !ok || id.Name != mask {
		return "", nil, false
	}
	id, ok := bits.Y.(*ast.Ident)
	if !ok {
		return "", nil, false
	}
	return id.Name, and.Y, true
}

// firstWordsAsked are the first literal words of the p.is and p.accept calls (and their
// one-word forms is1 and accept1) in e that are not under a "!".
func firstWordsAsked(e ast.Expr) []string {
	var words []string
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == gotoken.NOT {
				return false
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains([]string{"is", "accept", "is1", "accept1"}, sel.Sel.Name) || len(n.Args) == 0 {
				return true
			}
			if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
				if w, err := strconv.Unquote(lit.Value); err == nil && !slices.Contains(words, w) {
					words = append(words, w)
				}
			}
		}
		return true
	}
	ast.Inspect(e, walk)
	return words
}

// isOriginalMessage tells a line from the words it looks for by its first letter alone:
// nothing but those letters may fold to them (strings.EqualFold folds "ſ" to "s" and "K"
// to "k", but nothing outside ASCII to "o", "f" or "u").
func TestFirstFoldsASCII(t *testing.T) {
	for _, r := range "ofu" {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				t.Errorf("%q folds to %q: isOriginalMessage would miss a line starting with it", f, r)
			}
		}
		for _, line := range []string{"Original Message", "-----ORIGINAL MESSAGE-----", "__ forwarded message __",
			"Ursprüngliche Nachricht", "  URSPRÜNGLICHE NACHRICHT"} {
			if !isOriginalMessage(strings.TrimSpace(line)) {
				t.Errorf("%q is not an original message", line)
			}
		}
	}
	if isOriginalMessage("Øriginal message") || isOriginalMessage("original messages") {
		t.Error("a near miss is an original message")
	}
}
