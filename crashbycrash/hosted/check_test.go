package hosted

import (
	"strings"
	"testing"
)

// A mail with the envelope and no move was answered "line 1, column 1: no action": line 1
// of the mail is its "game" line, which is right. The problem is the whole mail's.
func TestCheckOfAMailWithoutAMoveNamesNoLine(t *testing.T) {
	p := inPlay(t, 3)
	seat := p.State.ToMove
	for _, text := range []string{"\n\n\n\n", "\n\n\n\ndraw face-up 1, deck\n"} {
		ch := p.Check(seat, text)
		if ch.OK() || len(ch.Problems) != 1 || ch.Problems[0].Line != 0 || !strings.Contains(ch.Problems[0].Msg, "no move") {
			t.Errorf("%q: %+v; want one problem about the whole mail, \"no move\"", text, ch.Problems)
		}
	}
}
