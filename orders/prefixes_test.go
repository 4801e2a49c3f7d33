package orders

import (
	"strings"
	"testing"
)

// squareKindAll is squareKind as it was before squarePrefixes: every run of words
// looked up, longest first.
func squareKindAll(words []string) (string, int) {
	for n := len(words); n > 0; n-- {
		key := ""
		for _, w := range words[:n] {
			switch w {
			case "two", "double", "dual":
				w = "2"
			case "one", "single":
				w = "1"
			case "site", "square", "space", "tile", "sites", "squares", "spaces":
				continue
			}
			w = strings.ReplaceAll(w, "-", "")
			w = strings.ReplaceAll(strings.ReplaceAll(w, "wrenches", "spanner"), "wrench", "spanner")
			if w != "express" {
				w = strings.TrimSuffix(w, "s")
			}
			key += w
		}
		if kind, ok := squareKinds[key]; ok {
			return kind, n
		}
	}
	return "", 0
}

// squareKind and matchOption stop at the longest run of words that begins a name
// (squarePrefixes, vocab.prefixes); they find what a look-up of every run finds, for
// every sequence of up to three words drawn from the names' own words, the words
// squareKind rewrites or skips, and others, with a fourth word after.
func TestNameLookupsStopAtPrefixes(t *testing.T) {
	seen := map[string]bool{}
	var words []string
	add := func(ws ...string) {
		for _, w := range ws {
			if w != "" && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	add("two", "double", "dual", "one", "single", "site", "square", "squares", "tile", "wrench",
		"wrenches", "spanner", "repair", "flag", "belt", "express", "conveyor", "the", "a", "on",
		"2", "1", "pit", "retro", "rockets", "retro-rockets", "brakes", "tractor", "beam", "gyro",
		"power", "down", "x")
	for _, n := range theVocab().names {
		add(strings.Fields(strings.ToLower(n))...)
	}
	for k := range squareKinds {
		add(k)
	}
	if len(words) > 120 {
		words = words[:120]
	}
	v := theVocab()
	checked := 0
	seqs := [][]string{}
	for _, a := range words {
		seqs = append(seqs, []string{a, "x"})
		for _, b := range words {
			seqs = append(seqs, []string{a, b, "x"})
		}
	}
	// three-word runs from the names themselves
	for _, n := range v.names {
		if f := strings.Fields(strings.ToLower(n)); len(f) >= 2 {
			seqs = append(seqs, append(f, "x"), append([]string{"square"}, f...))
		}
	}
	for _, seq := range seqs {
		toks := make([]token, len(seq))
		for i, w := range seq {
			toks[i] = token{text: w, raw: w, col: i + 1, kind: 'w'}
		}
		p := newLangParser(toks, 1)
		kind, n := p.squareKind()
		wantKind, wantN := squareKindAll(seq[:min(len(seq), 5)])
		if kind != wantKind || n != wantN {
			t.Fatalf("squareKind %q = %q, %d; every run looked up: %q, %d", seq, kind, n, wantKind, wantN)
		}
		name, n, ok := p.matchOption(seq)
		wantName, wantN, wantOK := "", 0, false
		for k := len(seq); k > 0; k-- {
			if nm, found := v.options[string(appendSquashed(nil, seq[:k]...))]; found {
				wantName, wantN, wantOK = nm, k, true
				break
			}
		}
		if name != wantName || n != wantN || ok != wantOK {
			t.Fatalf("matchOption %q = %q, %d, %v; every run looked up: %q, %d, %v", seq, name, n, ok, wantName, wantN, wantOK)
		}
		checked++
	}
	t.Logf("%d runs of words checked", checked)
}
