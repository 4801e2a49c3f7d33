package judge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset"

	"github.com/rallyjudge/rallyjudge/roborally/demobots"
	"github.com/rallyjudge/rallyjudge/store"
)

// parsedReport is a report mail as a standard MIME parser (go-message) reads it.
type parsedReport struct {
	name        string
	to          string
	subject     string
	messageID   string
	inReplyTo   string
	references  string
	contentType string
	text, html  string
	inline      map[string][]byte // Content-ID → data
	size        int
}

// parseReport reads a report: multipart/alternative with a text/plain part and a
// text/html part, the HTML possibly in a multipart/related with its pictures.
func parseReport(t *testing.T, name string, raw []byte) parsedReport {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p := parsedReport{name: name, size: len(raw), inline: map[string][]byte{}}
	p.to = e.Header.Get("To")
	p.subject, _ = e.Header.Text("Subject")
	p.messageID = e.Header.Get("Message-Id")
	p.inReplyTo = e.Header.Get("In-Reply-To")
	p.references = e.Header.Get("References")
	p.contentType, _, _ = e.Header.ContentType()
	if p.contentType != "multipart/alternative" {
		t.Fatalf("%s: Content-Type %s, want multipart/alternative", name, p.contentType)
	}
	var walk func(e *message.Entity)
	walk = func(e *message.Entity) {
		if mr := e.MultipartReader(); mr != nil {
			for {
				part, err := mr.NextPart()
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				walk(part)
			}
		}
		ct, _, _ := e.Header.ContentType()
		b, err := io.ReadAll(e.Body)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, ct, err)
		}
		switch {
		case ct == "text/plain":
			p.text = strings.ReplaceAll(string(b), "\r\n", "\n")
		case ct == "text/html":
			p.html = strings.ReplaceAll(string(b), "\r\n", "\n")
		case strings.HasPrefix(ct, "image/"):
			p.inline[strings.Trim(e.Header.Get("Content-Id"), "<>")] = b
		}
	}
	walk(e)
	if p.text == "" || p.html == "" {
		t.Fatalf("%s: text part %d bytes, HTML part %d bytes; want both", name, len(p.text), len(p.html))
	}
	return p
}

var cardRE = regexp.MustCompile(`P(\d+)`)

// handCards are the cards of the report's hand section ("YOUR HAND ..." to the blank
// line).
func handCards(text string) []string {
	h := handSection(text)
	if h == "" {
		return nil
	}
	var out []string
	for _, m := range cardRE.FindAllStringSubmatch(h, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDemoMail runs `rallyjudge demo --save-mail DIR` in process and reads every report
// it saved: multipart/alternative with text and HTML, pictures inline and referenced,
// threaded under the game's root, each player's report with one hand that no other
// player's report of the same turn shows.
func TestDemoMail(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a demo game over local mail servers")
	}
	dir := t.TempDir()
	res, err := RunDemo(context.Background(), DemoOptions{Game: demobots.New(demobots.Options{}), Seed: 3, Turns: 3, SaveMail: dir})
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*-report-*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 || len(names) != res.Reports {
		t.Fatalf("%d report files saved, the demo says %d reports", len(names), res.Reports)
	}
	sort.Strings(names)
	root := "<game.demo@example.test>"
	hands := map[string]map[string]string{} // subject's turn → card → recipient
	var sizes []int
	for _, n := range names {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		r := parseReport(t, filepath.Base(n), raw)
		sizes = append(sizes, r.size)
		// Each player's reports reply to that player's welcome, under the game's root.
		welcome := regexp.MustCompile(`^<report\.demo\.0\.s\d@example\.test>$`)
		if !welcome.MatchString(r.inReplyTo) || !strings.Contains(r.references, root) || !strings.Contains(r.references, r.inReplyTo) {
			t.Errorf("%s: In-Reply-To %q References %q; want a reply to the player's welcome under %s", r.name, r.inReplyTo, r.references, root)
		}
		if !strings.HasPrefix(r.subject, "[RR demo] Turn ") {
			t.Errorf("%s: subject %q lacks the game tag and turn", r.name, r.subject)
		}
		// Pictures: every cid: the HTML shows is an inline part of the mail.
		cids := regexp.MustCompile(`src="cid:([^"]+)"`).FindAllStringSubmatch(r.html, -1)
		if len(cids) != 7 {
			t.Errorf("%s: the HTML shows %d pictures, want 7 (board, turn, a still per register)", r.name, len(cids))
		}
		for _, c := range cids {
			if len(r.inline[c[1]]) == 0 {
				t.Errorf("%s: the HTML shows cid:%s, which is not in the mail", r.name, c[1])
			}
		}
		if !strings.Contains(r.html, "<pre") {
			t.Errorf("%s: the HTML has no monospace board", r.name)
		}
		cards := handCards(r.text)
		if strings.Contains(r.subject, "game over") {
			continue
		}
		if len(cards) == 0 {
			t.Errorf("%s: no hand in the report", r.name)
		}
		if strings.Count(r.text, "YOUR HAND") != 1 {
			t.Errorf("%s: %d hand sections", r.name, strings.Count(r.text, "YOUR HAND"))
		}
		turn := strings.Fields(r.subject)[3]
		if hands[turn] == nil {
			hands[turn] = map[string]string{}
		}
		for _, c := range cards {
			if other, ok := hands[turn][c]; ok && other != r.to {
				t.Errorf("%s: card P%s is in the hands of both %s and %s", r.name, c, r.to, other)
			}
			hands[turn][c] = r.to
		}
		// The HTML part shows the same hand, and no card of another hand of the turn.
		htmlHand := r.html[strings.Index(r.html, "Your hand"):]
		htmlHand = htmlHand[:strings.Index(htmlHand, "Standing orders")]
		for _, m := range cardRE.FindAllStringSubmatch(htmlHand, -1) {
			if !contains(cards, m[1]) {
				t.Errorf("%s: the HTML hand shows P%s, the text hand does not", r.name, m[1])
			}
		}
	}
	sort.Ints(sizes)
	median := sizes[len(sizes)/2]
	t.Logf("%d reports; sizes: smallest %d, median %d, largest %d bytes", len(sizes), sizes[0], median, sizes[len(sizes)-1])
	if median > 400<<10 {
		t.Errorf("a typical report with pictures is %d bytes; keep it under 400 KiB", median)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestListGameReports: with a mailing list, the public part goes once to the list and
// each player gets only the private part, by direct mail, as a reply to the public
// part; a player who switched pictures off gets reports without them.
func TestListGameReports(t *testing.T) {
	for _, list := range []string{"", "racers@lists.example.test"} {
		t.Run(fmt.Sprintf("list=%q", list), func(t *testing.T) {
			f := newReportFixture(t, list)
			// Hulk switches pictures off.
			err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
				p, err := tx.PlayerByRobot(f.game, "Hulk")
				if err != nil {
					return err
				}
				return tx.SetPlayerPictures(p.ID, false)
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
				f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
			}
			if g, _ := f.state(); g.CurrentTurn != 2 {
				t.Fatalf("the turn did not resolve (game at turn %d)", g.CurrentTurn)
			}
			var toList []parsedReport
			byRobot := map[string]parsedReport{}
			for _, m := range f.outbox() {
				if m.Kind != "report" {
					continue
				}
				r := parseReport(t, m.MessageID, m.Raw)
				if m.To[0] == list {
					toList = append(toList, r)
					continue
				}
				byRobot[strings.TrimSuffix(m.To[0], "@example.test")] = r
			}
			root := "<game.spring@example.test>"
			if list == "" {
				if len(toList) != 0 {
					t.Fatalf("%d reports to a list in a game without one", len(toList))
				}
			} else {
				if len(toList) != 1 {
					t.Fatalf("%d reports to the list, want 1", len(toList))
				}
				pub := toList[0]
				if strings.Contains(pub.text, "YOUR HAND") || strings.Contains(pub.text, "#orders") || pub.inReplyTo != root {
					t.Errorf("the list's report shows a private part or is not threaded (In-Reply-To %q):\n%s", pub.inReplyTo, pub.text)
				}
				if !strings.Contains(pub.text, "WHAT HAPPENED") || len(pub.inline) != 7 {
					t.Errorf("the list's report lacks the events or its 7 pictures (board, turn, a still per register): %d", len(pub.inline))
				}
			}
			if len(byRobot) != 3 {
				t.Fatalf("reports to %d players, want 3", len(byRobot))
			}
			for robot, r := range byRobot {
				if len(handCards(r.text)) == 0 {
					t.Errorf("%s: no hand", robot)
				}
				public := strings.Contains(r.text, "WHAT HAPPENED")
				if public != (list == "") {
					t.Errorf("%s: the public part is shown: %v (list %q)", robot, public, list)
				}
				wantPics := 7 // the board, the turn, a still per register
				if list != "" || robot == "hulk" {
					wantPics = 0
				}
				if len(r.inline) != wantPics || strings.Count(r.html, "cid:") != wantPics {
					t.Errorf("%s: %d inline pictures, %d cid references; want %d", robot, len(r.inline), strings.Count(r.html, "cid:"), wantPics)
				}
				// Without a list each player's reports thread under that player's welcome.
				parent := "<report.spring.0.s" + map[string]string{"twonky": "0", "zoombot": "1", "hulk": "2"}[robot] + "@example.test>"
				if list != "" {
					parent = toList[0].messageID
				}
				if r.inReplyTo != parent || !strings.Contains(r.references, root) {
					t.Errorf("%s: In-Reply-To %q References %q; want a reply to %s under %s", robot, r.inReplyTo, r.references, parent, root)
				}
			}
		})
	}
}

// reportFixture is the judge fixture with a game that may have a mailing list.
type reportFixture struct {
	*fixture
	game int64
}

func newReportFixture(t *testing.T, list string) reportFixture {
	t.Helper()
	f := newJudgeFixture(t)
	spec := GameSpec{Tag: "spring", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test", List: list,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	f.createGame(spec)
	g, _ := f.state()
	return reportFixture{f, g.ID}
}

// TestReportSubjectAndHeaders: the subject carries the tag and the turn; a report is
// auto-generated (RFC 3834) and its pictures are named for saving.
func TestReportHeaders(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	reps := f.mailsTo("zoombot@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	raw := string(reps[0].Raw)
	for _, want := range []string{"Subject: [RR spring] Turn 1 report for Zoombot", "Auto-Submitted: auto-generated",
		"Content-Type: multipart/related", `filename=spring-turn-1.png`, `filename=spring-turn-1.gif`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	parseReport(t, reps[0].MessageID, reps[0].Raw)
}

// TestConfigKeysDocumented: every key of the config file is explained in docs/config.md.
func TestConfigKeysDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			key := prefix + tag
			keys = append(keys, key)
			if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == typ.PkgPath() && f.Type.Name() != "Duration" {
				walk(key+".", f.Type)
			}
		}
	}
	walk("", reflect.TypeOf(Config{}))
	if len(keys) < 20 {
		t.Fatalf("found only %d keys: %v", len(keys), keys)
	}
	for _, k := range keys {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/config.md does not explain `%s`", k)
		}
	}
}
