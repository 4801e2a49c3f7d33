package judge

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCrashByCrashByMailGuide plays docs/crash-by-crash-mail.md: each ```mail block is
// sent as written (the secrets and codes filled in), and each ```reply block's lines
// must stand in the judge's reply in that order ("..." skips lines). The guide's moves
// are real moves of the game its CREATE deals (seed 7): a newcomer following the guide
// word for word gets the replies it shows.
func TestCrashByCrashByMailGuide(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "crash-by-crash-mail.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docMailBlocks(string(doc))
	if len(blocks) < 8 {
		t.Fatalf("%d example mails in docs/crash-by-crash-mail.md", len(blocks))
	}
	f := newJudgeFixture(t)
	boss := f.addServerGM("boss@example.test")
	secrets := map[string]string{}
	secretRE := regexp.MustCompile(`(?m)^Your secret is: (\S+)$`)
	for i, b := range blocks {
		from, subj, body := docMail(b[1])
		code := ""
		for _, m := range f.mailsTo(from, "") {
			if c := confirmCode.FindStringSubmatch(textOf(t, m)); c != nil {
				code = c[1]
			}
		}
		body = strings.NewReplacer("SERVER-SECRET", boss, "YOUR-SECRET", secrets[from], "CONFIRM CODE", "CONFIRM "+code).Replace(body)
		f.deliver(rawMail(from, subj, body))
		_, text := f.reply(f.uid)
		if os.Getenv("GUIDE_PRINT") != "" {
			t.Logf("=== mail %d from %s:\n%s\n--- reply:\n%s", i+1, from, body, text)
		}
		if s := secretRE.FindStringSubmatch(text); s != nil {
			secrets[from] = s[1]
		}
		checkReplyLines(t, fmt.Sprintf("example %d (%s)", i+1, subj), b[2], text)
	}
}

// docMailBlocks are a guide's examples: each ```mail block with the ```reply block after
// it ([1] the mail, [2] the reply).
func docMailBlocks(doc string) [][]string {
	return regexp.MustCompile("(?s)```mail\n(.*?)```\\s*```reply\n(.*?)```").FindAllStringSubmatch(doc, -1)
}

// docMail splits an example mail: its From and Subject, and its body.
func docMail(m string) (from, subj, body string) {
	head, body, _ := strings.Cut(m, "\n\n")
	for _, l := range strings.Split(head, "\n") {
		if v, ok := strings.CutPrefix(l, "From: "); ok {
			from = v
		}
		if v, ok := strings.CutPrefix(l, "Subject: "); ok {
			subj = v
		}
	}
	return from, subj, body
}

// checkReplyLines says which line of the guide's reply is not in the judge's, in order
// ("..." in the guide skips lines).
func checkReplyLines(t *testing.T, what, want, text string) {
	t.Helper()
	got := strings.Split(text, "\n")
	at := 0
	for _, w := range strings.Split(strings.TrimRight(want, "\n"), "\n") {
		if w == "..." {
			continue
		}
		found := false
		for ; at < len(got); at++ {
			if strings.TrimRight(got[at], " ") == strings.TrimRight(w, " ") {
				found = true
				at++
				break
			}
		}
		if !found {
			t.Errorf("%s: the reply lacks, in its place, the line %q; it was:\n%s", what, w, text)
			return
		}
	}
}
