package judge

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// A plain game's report (not a game.Mailer) is wrapped by the judge: its board picture
// and its other pictures are inline parts the page shows, its HTML fragment stands in
// Text's place; a Mailer's report goes as it is, the judge adding nothing.
func TestGameMailPictures(t *testing.T) {
	j := newJudgeFixture(t).j
	gif := game.Picture{Name: "move.gif", ContentType: "image/gif", ContentID: "move.g1@example.test", Data: []byte("GIF89a...")}
	for _, tc := range []struct {
		name     string
		rep      game.Report
		inline   []string // Content-IDs, in order
		html     []string // what the HTML holds
		htmlNot  []string
		wantText string // the whole text ("" : not checked)
	}{
		{"text and board", game.Report{Text: "the board as text", Picture: []byte("\x89PNG...")},
			[]string{boardCID}, []string{"cid:" + boardCID, "the board as text"}, []string{"cid:move"}, ""},
		{"board and more pictures", game.Report{Text: "plain", Picture: []byte("\x89PNG..."), Pictures: []game.Picture{gif, {Name: "empty.png"}}},
			[]string{boardCID, gif.ContentID}, []string{"cid:" + boardCID, "cid:" + gif.ContentID, "plain"}, nil, ""},
		{"an HTML fragment", game.Report{Text: "plain words", HTML: `<p class="mine">rich words</p>`, Pictures: []game.Picture{gif}},
			[]string{gif.ContentID}, []string{`<p class="mine">rich words</p>`, "cid:" + gif.ContentID}, []string{"plain words"}, ""},
		{"whole", game.Report{Whole: true, Text: "all of it\n", HTML: "<!DOCTYPE html><p>all</p>", Pictures: []game.Picture{gif}},
			[]string{gif.ContentID}, []string{"<!DOCTYPE html><p>all</p>"}, []string{"Title"}, "all of it\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m outMail
			if err := j.gameMail(&m, "Title", []string{"an intro"}, tc.rep, "the foot\n"); err != nil {
				t.Fatal(err)
			}
			var cids []string
			for _, in := range m.inline {
				cids = append(cids, in.ContentID)
			}
			if strings.Join(cids, " ") != strings.Join(tc.inline, " ") {
				t.Errorf("inline parts %v, want %v", cids, tc.inline)
			}
			for _, w := range tc.html {
				if !strings.Contains(m.html, w) {
					t.Errorf("the HTML lacks %q:\n%s", w, m.html)
				}
			}
			for _, w := range tc.htmlNot {
				if strings.Contains(m.html, w) {
					t.Errorf("the HTML has %q:\n%s", w, m.html)
				}
			}
			if tc.wantText != "" && m.text != tc.wantText {
				t.Errorf("text %q, want %q", m.text, tc.wantText)
			}
			if !tc.rep.Whole && (!strings.Contains(m.text, "an intro") || !strings.Contains(m.text, "the foot")) {
				t.Errorf("the judge's lines are not around a plain report:\n%s", m.text)
			}
		})
	}
}
