package judge

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// playersGuideCommands are the mails the test sends for each command of docs/players.md's
// Commands table, by its first cell (a cell naming two commands, "`PICTURES OFF` / `ON`",
// is two mails), in the table's order. Placeholders become the fixture game's: GAME is
// spring, ROBOT Zoombot, [TURN] left out (the latest), PRESS's message a line and ENDPRESS.
// FROM: is who sends it (zoombot@ with Zoombot's secret unless said), and a command that
// would end the walk for Zoombot (WITHDRAW) is Spinbot's, a fourth robot of the game. An empty body is not sent: the
// reason is in playersGuideCommandsNotSent.
var playersGuideCommands = []struct{ cell, from, body string }{
	{"`HELP`", "zoombot", "HELP"},
	{"`LIST`", "zoombot", "LIST"},
	{"`JOIN [GAME] ROBOT`", "", ""},
	{"`CONFIRM CODE`", "", ""},
	{"`ORDERS`", "zoombot", "ORDERS\nSHEET"},
	{"`STATUS`", "zoombot", "STATUS"},
	{"`RESEND [TURN]`", "zoombot", "RESEND"},
	{"`HISTORY`", "zoombot", "HISTORY"},
	{"`HISTORY REPLAY`", "zoombot", "HISTORY REPLAY"},
	{"`WITHDRAW`", "spinbot", "WITHDRAW"},
	{"`PICTURES OFF` / `ON`", "zoombot", "PICTURES OFF"},
	{"`PICTURES OFF` / `ON`", "zoombot", "PICTURES ON"},
	{"`TIMEZONE Europe/Berlin`", "zoombot", "TIMEZONE Europe/Berlin"},
	{"`WAIT` / `NOWAIT`", "zoombot", "WAIT"},
	{"`WAIT` / `NOWAIT`", "zoombot", "NOWAIT"},
	{"`ABSENT 2026-07-01 2026-07-14`", "zoombot", "ABSENT 2026-07-01 2026-07-14"},
	{"`PRESS TO Twonky,Hulk` (or `TO ALL`), `ANON` or `SIGNED`", "zoombot", "PRESS TO Twonky,Hulk\nHello from the guide.\nENDPRESS"},
	{"`PRESS TO Twonky,Hulk` (or `TO ALL`), `ANON` or `SIGNED`", "zoombot", "PRESS TO ALL SIGNED\nHello from the guide.\nENDPRESS"},
	{"`WHOGAME`", "zoombot", "WHOGAME"},
	{"`ADDRESS new@example.org`", "zoombot", "ADDRESS new@example.org"},
	{"`NEWSECRET GAME ROBOT`", "zoombot", "NEWSECRET spring Zoombot"},
	{"`OBSERVE GAME` / `UNOBSERVE GAME`", "watcher", "OBSERVE spring"},
	{"`OBSERVE GAME` / `UNOBSERVE GAME`", "watcher", "UNOBSERVE spring"},
	{"`STANDBY GAME`", "watcher", "STANDBY spring"},
}

var playersGuideCommandsNotSent = map[string]string{
	"`JOIN [GAME] ROBOT`": "the guide's JOIN spring Zoombot is sent by TestPlayersGuideWalked",
	"`CONFIRM CODE`":      "the CONFIRM of that JOIN is sent by TestPlayersGuideWalked",
}

// TestPlayersGuideCommandsWalked sends every command of docs/players.md's Commands table,
// in the table's order, to the fixture game spring (running: Twonky, Zoombot, Hulk and Spinbot), each
// in a mail of its own with the sender's secret (the guide: "Every command but HELP, LIST,
// JOIN, CONFIRM, NEWSECRET, OBSERVE, UNOBSERVE and STANDBY needs your secret"; those
// are sent without it). Each must be answered and not refused; a row of the table the test
// does not know fails it until it is classified above, as does an entry the table lost.
// Then the guide's common mistake (```sheet-error) must be refused.
func TestPlayersGuideCommandsWalked(t *testing.T) {
	doc := guideFileText(t, "players.md")
	_, section, ok := strings.Cut(doc, "\n## Commands\n")
	if !ok {
		t.Fatal("docs/players.md has no Commands section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var cells []string
	for _, m := range regexp.MustCompile("(?m)^\\| (`[A-Z].*?) \\| ").FindAllStringSubmatch(section, -1) {
		cells = append(cells, m[1])
	}
	// the commands the guide says need no secret, as it says it
	m := regexp.MustCompile(`Every command but ([A-Z, ]+) and ([A-Z]+) needs`).FindStringSubmatch(strings.Join(strings.Fields(doc), " "))
	if m == nil {
		t.Fatal("docs/players.md no longer says which commands need no secret")
	}
	noSecret := map[string]bool{m[2]: true}
	for _, v := range strings.Split(m[1], ", ") {
		noSecret[v] = true
	}
	f := newFixture(t, "Twonky", "Zoombot", "Hulk", "Spinbot")
	known := map[string]bool{}
	sent := 0
	for _, c := range playersGuideCommands {
		known[c.cell] = true
	}
	for cell := range playersGuideCommandsNotSent {
		known[cell] = true
	}
	inTable := map[string]bool{}
	for _, cell := range cells {
		inTable[cell] = true
		if !known[cell] {
			t.Errorf("docs/players.md's command %s is not walked: add it to playersGuideCommands", cell)
		}
		for _, c := range playersGuideCommands {
			if c.cell != cell || c.body == "" {
				continue
			}
			sent++
			verb := strings.Fields(c.body)[0]
			body := strings.Replace(c.body, "SHEET", f.sheet("Zoombot", ""), 1)
			if !noSecret[verb] && c.from != "watcher" {
				body = "secret " + f.secrets[strings.ToUpper(c.from[:1])+c.from[1:]] + "\n" + body
			}
			kind, text := f.send(c.from+"@example.test", "[RR spring] "+verb, body+"\n")
			if os.Getenv("GUIDE_PRINT") != "" {
				t.Logf("=== %s\n%s\n--- %s:\n%s", cell, body, kind, text)
			}
			if kind == "reject" || strings.Contains(text, "Not done") || text == "" {
				t.Errorf("docs/players.md %s: the mail\n%s\nwas answered %s:\n%s", cell, body, kind, text)
			}
		}
	}
	var stale []string
	for cell := range known {
		if !inTable[cell] {
			stale = append(stale, cell)
		}
	}
	sort.Strings(stale)
	for _, c := range stale {
		t.Errorf("the test walks %s, which docs/players.md's table no longer has", c)
	}
	if sent < 20 {
		t.Errorf("sent %d commands of docs/players.md", sent)
	}

	// the common mistake: refused, saying why (sent by Hulk, whose secret is the one the
	// fixture made: Zoombot's was renewed by NEWSECRET above)
	_, block, ok := strings.Cut(doc, "```sheet-error\n")
	if !ok {
		t.Fatal("docs/players.md's common mistake (```sheet-error) is gone")
	}
	block, _, _ = strings.Cut(block, "```")
	kind, text := f.send("hulk@example.test", "[RR spring] orders", "secret "+f.secrets["Hulk"]+"\n"+strings.Replace(block, "Zoombot", "Hulk", 1))
	if kind != "reject" || !strings.Contains(text, "error") {
		t.Errorf("docs/players.md's common mistake was answered %s, not refused with its error:\n%s", kind, text)
	}
	t.Logf("walked %d commands of docs/players.md's table and its common mistake", sent)
}

// TestHelpNamesTheCommandsThatNeedNoSecretAsTheGuideDoes: the HELP reply's "Every command
// but ... needs your secret" names the commands docs/players.md names. HELP listed WHOGAME
// among them while the guide (and cmdWhoGame, unless the game's whogame is public) asked
// for the secret, so a player who believed HELP was refused.
func TestHelpNamesTheCommandsThatNeedNoSecretAsTheGuideDoes(t *testing.T) {
	list := func(text string) []string {
		t.Helper()
		m := regexp.MustCompile(`Every command but ([A-Z, ]+?)(?: and ([A-Z]+))? needs`).FindStringSubmatch(strings.Join(strings.Fields(text), " "))
		if m == nil {
			t.Fatalf("no \"Every command but ... needs\" in:\n%s", text)
		}
		vs := strings.Split(m[1], ", ")
		if m[2] != "" {
			vs = append(vs, m[2])
		}
		slices.Sort(vs)
		return vs
	}
	guide := list(guideFileText(t, "players.md"))
	help := list(HelpText("judge@example.org"))
	if !slices.Equal(guide, help) {
		t.Errorf("HELP says these commands need no secret: %v; docs/players.md: %v", help, guide)
	}
}

func guideFileText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
