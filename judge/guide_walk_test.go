package judge

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// guideBlock is one mail of docs/players.md: a fenced block of commands ("```") or a
// sheet for the guide's game ("```sheet sprint/42/Twonky,Zoombot,Hulk"), in the order
// the guide gives them.
type guideBlock struct {
	line  int
	sheet bool
	text  string
}

var fenceRE = regexp.MustCompile("(?ms)^```([^\\n]*)\\n(.*?)^```")

func playersGuideBlocks(t *testing.T) []guideBlock {
	t.Helper()
	b, err := os.ReadFile("../docs/players.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []guideBlock
	for _, m := range fenceRE.FindAllSubmatchIndex(b, -1) {
		info, text := string(b[m[2]:m[3]]), string(b[m[4]:m[5]])
		line := strings.Count(string(b[:m[0]]), "\n") + 1
		switch {
		case info == "":
			out = append(out, guideBlock{line, false, text})
		case strings.HasPrefix(info, "sheet sprint/42/"):
			out = append(out, guideBlock{line, true, text})
		}
	}
	return out
}

// TestPlayersGuideWalked plays docs/players.md on a fresh database in the guide's order
// (issue 22 item 5): LIST, JOIN, the CONFIRM its reply asks for, the sheets for the
// guide's game, STATUS; the guide's code and secret are the ones the judge mailed. Two
// more players join around Zoombot (the guide's seats: Twonky, Zoombot, Hulk) and the
// game master starts the game when the guide's player has joined. It fails when a mail
// the guide shows is refused or answered otherwise than the guide says.
func TestPlayersGuideWalked(t *testing.T) {
	f := newJudgeFixture(t)
	ctx := context.Background()
	if _, err := f.j.RunCommand(ctx, "", Command{Verb: "CREATE", Args: []string{"spring"},
		KV: [][2]string{{"course", "sprint"}, {"seed", "42"}}}); err != nil {
		t.Fatal(err)
	}
	blocks := playersGuideBlocks(t)
	if len(blocks) < 5 {
		t.Fatalf("found %d mails in docs/players.md", len(blocks))
	}
	code, secret, started, sheets := "", "", false, 0
	for _, b := range blocks {
		body := b.text
		switch {
		case strings.HasPrefix(body, "JOIN "):
			f.joinConfirmed("twonky@example.test", "join", "JOIN spring Twonky\n") // seat 1, as in the guide
		case strings.HasPrefix(body, "CONFIRM "):
			body = strings.Replace(body, strings.Fields(body)[1], code, 1)
		}
		if (b.sheet || strings.Contains(body, "tango-42")) && !started {
			f.joinConfirmed("hulk@example.test", "join", "JOIN spring Hulk\n")
			if out, err := f.j.RunCommand(ctx, "spring", Command{Verb: "START"}); err != nil || strings.HasPrefix(out, "Not done") {
				t.Fatalf("START: %v %s", err, out)
			}
			started = true
			if secret == "" {
				t.Fatal("no secret in the reply to Zoombot's CONFIRM")
			}
		}
		body = strings.ReplaceAll(body, "tango-42", secret)
		subject := "guide"
		if b.sheet {
			subject = "[RR spring] orders"
		}
		kind, text := f.send("zoombot@example.test", subject, body)
		first := strings.SplitN(strings.TrimSpace(b.text), "\n", 2)[0]
		switch {
		case b.sheet:
			sheets++
			if kind != "ack" {
				t.Errorf("docs/players.md:%d: the sheet was answered %s, not acknowledged:\n%s", b.line, kind, text)
			}
		case first == "LIST":
			mustContain(t, fmt.Sprintf("docs/players.md:%d LIST", b.line), text, "spring")
		case strings.HasPrefix(first, "JOIN"):
			m := confirmCode.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("docs/players.md:%d: JOIN's reply asks for no CONFIRM:\n%s", b.line, text)
			}
			code = m[1]
		case strings.HasPrefix(first, "CONFIRM"):
			mustContain(t, fmt.Sprintf("docs/players.md:%d CONFIRM", b.line), text, "Zoombot")
			if s := secretInText.FindStringSubmatch(text); s != nil {
				secret = s[1] // the player's secret comes with the seat
			}
		default:
			if strings.Contains(text, "Not done") || kind == "reject" {
				t.Errorf("docs/players.md:%d: %q was refused (%s):\n%s", b.line, first, kind, text)
			}
		}
	}
	if !started || sheets == 0 {
		t.Errorf("the guide's walk started the game: %v, sent %d sheets", started, sheets)
	}
}
