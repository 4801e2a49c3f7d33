package judge

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// guideText is a guide of docs/ with every run of blanks and line breaks made one space,
// so that a quotation the page wraps over two lines is found as the judge writes it.
func guideText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// guideQuote is the quotation of docs/NAME that starts with prefix: the text from prefix
// to the closing quotation mark.
func guideQuote(t *testing.T, name, prefix string) string {
	t.Helper()
	text := guideText(t, name)
	m := regexp.MustCompile(`"(` + regexp.QuoteMeta(prefix) + `[^"]*)"`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("docs/%s quotes nothing starting %q any more", name, prefix)
	}
	return m[1]
}

// guideSheet is the first "sheet COURSE/SEED/ROBOTS" example of docs/players.md: the
// Zoombot sheet filled in from its hand in the game spring (sprint, seed 42), the game
// the fixture creates.
func guideSheet(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/players.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```sheet sprint/42/Twonky,Zoombot,Hulk\n")
	if !ok {
		t.Fatal("docs/players.md has no sheet for sprint/42/Twonky,Zoombot,Hulk any more")
	}
	sheet, _, _ := strings.Cut(rest, "```")
	return sheet
}

// TestPlayersGuideRepliesAsQuoted: what docs/players.md quotes of the judge's replies
// ("What the judge says back") is what the judge writes: the refusal of a card that is
// not in the hand, with its line and column as the player counts them in the guide's
// own sheet, and the warning for an order about an option the robot does not hold. The
// guide quoted wordings the judge never used ("P495 is not a card; did you mean P490?",
// "you hold no Brakes").
func TestPlayersGuideRepliesAsQuoted(t *testing.T) {
	f := newFixture(t)
	sheet := strings.Replace(guideSheet(t), "secret tango-42", "secret "+f.secrets["Zoombot"], 1)

	// "line 8, column 4": the guide's sheet with its line 8 ("2: Move 2 P670") holding
	// a card that is not in the hand.
	lines := strings.Split(sheet, "\n")
	if lines[7] != "2: Move 2 P670" {
		t.Fatalf("the guide's sheet changed: line 8 is %q", lines[7])
	}
	lines[7] = "2: P495"
	kind, text := f.send("zoombot@example.test", "[RR spring] orders", strings.Join(lines, "\n"))
	want := guideQuote(t, "players.md", "line 8, column 4:")
	if kind != "reject" || !strings.Contains(text, want) {
		t.Errorf("the judge's refusal (%s) does not say what docs/players.md quotes, %q:\n%s", kind, want, text)
	}

	// the standing orders example: its "use Turret" line is refused while the robot
	// holds no Turret, as the guide now says (it did not, and the sheet was refused)
	b, _ := os.ReadFile("../docs/players.md")
	_, block, ok := strings.Cut(string(b), "```sheet\nrobot Zoombot\nsecret tango-42\nif lives")
	if !ok {
		t.Fatal("docs/players.md's standing orders example is gone")
	}
	block, _, _ = strings.Cut(block, "```")
	block = "robot Zoombot\nsecret " + f.secrets["Zoombot"] + "\nif lives" + block
	kind, text = f.send("zoombot@example.test", "[RR spring] orders", block)
	want = guideQuote(t, "players.md", "you do not hold Turret")
	if kind != "reject" || !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("the guide's standing orders, without a Turret: %s, not what docs/players.md quotes, %q:\n%s", kind, want, text)
	}

	// the warning for an order about an option not held
	kind, text = f.send("zoombot@example.test", "[RR spring] orders",
		strings.Replace(sheet, "#end", "discard Brakes to prevent damage\n#end", 1))
	want = guideQuote(t, "players.md", "you do not hold Brakes")
	if kind != "ack" || !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("the judge's acknowledgement (%s) does not warn as docs/players.md quotes, %q:\n%s", kind, want, text)
	}
}

// Mail whose From is the judge's own address (a copy of the judge's mail come back, or a
// forged From) is not answered: the answer would land in the judge's own mailbox (the
// bug: a HELP "from" the judge got a reply to the judge).
func TestMailFromTheJudgeItselfIsNotAnswered(t *testing.T) {
	f := newFixture(t)
	before := len(f.outbox())
	for _, from := range []string{"judge@example.test", "Judge@Example.TEST"} {
		f.deliver(rawMail(from, "help", "HELP\n"))
		if row := f.inboxStatus(f.uid); !strings.Contains(row.Note, "the judge's own address") {
			t.Errorf("mail from %s: inbox %s, %q; want it refused as the judge's own", from, row.Status, row.Note)
		}
	}
	if n := len(f.outbox()); n != before {
		t.Fatalf("mail from the judge's own address was answered: %d mails more in the outbox", n-before)
	}
}
