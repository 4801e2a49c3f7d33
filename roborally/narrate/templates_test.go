package narrate

import (
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/templates"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file (go test -run %s -update to accept):\n--- got\n%s\n--- want\n%s", name, t.Name(), got, want)
	}
}

// smallGame is a 6×6 floor: an east belt along row 2 ending in a pit, a laser, a flag.
func smallGame(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	b := adjudicator.NewBoard(6, 6)
	for x := 0; x < 5; x++ {
		b.At(adjudicator.Pos{X: x, Y: 2}).Belt = adjudicator.Belt{Kind: adjudicator.BeltNormal, Dir: adjudicator.East}
	}
	b.At(adjudicator.Pos{X: 5, Y: 2}).Floor = adjudicator.FloorPit
	b.At(adjudicator.Pos{X: 0, Y: 4}).Laser = adjudicator.Laser{Dir: adjudicator.East, Beams: 1}
	c := &adjudicator.Course{
		Name: "tiny", Board: b, Boards: 1,
		Flags:  []adjudicator.Pos{{X: 3, Y: 0}, {X: 0, Y: 0}},
		Starts: []adjudicator.Start{{Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: adjudicator.North}},
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"Zoom", "Twonky"})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// sprintGame plays turns of a seeded 4-robot game on the shipped course "sprint", each
// robot playing a seeded random program, and returns the setup, the state before the
// last turn, the state after it and its events.
func sprintGame(t testing.TB, turns int) (*adjudicator.Setup, *adjudicator.State, *adjudicator.State, []adjudicator.Event) {
	t.Helper()
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 11, []string{"Double Laser", "Extra Memory", "Brakes", "Rear Laser", "Turret"})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"Zoom", "Twonky", "Hulk", "Spinbot"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var before *adjudicator.State
	var events []adjudicator.Event
	for turn := 1; turn <= turns; turn++ {
		ords := make([]adjudicator.Orders, len(st.Robots))
		for i := range st.Robots {
			ords[i].Program = randomProgram(st.Robots[i], rng)
		}
		before = st
		st, events, err = adjudicator.Resolve(s, st, ords)
		if err != nil {
			t.Fatal(err)
		}
	}
	return s, before, st, events
}

func randomProgram(r adjudicator.Robot, rng *rand.Rand) [adjudicator.Registers]int {
	var p [adjudicator.Registers]int
	if r.Out || r.Power == adjudicator.PowerDown {
		return p
	}
	hand := append([]int(nil), r.Hand...)
	rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
	k := 0
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.IsLocked(reg) || k >= len(hand) {
			continue
		}
		p[reg-1] = hand[k]
		k++
	}
	return p
}

// reportFor builds robot i's whole report of the turn.
func reportFor(s *adjudicator.Setup, next *adjudicator.State, events []adjudicator.Event, i int, standing []string) Report {
	r := next.Robots[i]
	hand, locked := HandOf(s.Deck, r)
	rep := Report{
		Game: "test-game", Course: s.Course.Name, Turn: next.Turn - 1, NextTurn: next.Turn, Player: r.Name, PlayerOut: r.Out,
		Board: adjudicator.RenderText(s.Course, next.Robots), Legend: adjudicator.RenderLegend(next.Robots...),
		Sections: Narrate(s.Deck, events), Robots: StatusOf(s.Deck, next), Deadline: "Mon 2 Mar 2026 18:00 UTC",
		Winner: next.Winner, Over: next.Over, Hand: hand, Locked: locked, Down: r.Power == adjudicator.PowerDown,
		Standing: standing, Sheet: SheetFor("test-game", r, next.Turn, standing),
	}
	if next.Over {
		rep.Standings = StandingsOf(next)
	}
	return rep
}

func loadSet(t *testing.T) *templates.Set {
	t.Helper()
	set, err := BuiltIn()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestReportGolden renders every kind of report, text and HTML, against golden files.
func TestReportGolden(t *testing.T) {
	set := loadSet(t)
	s, _, next, events := sprintGame(t, 3)
	full := reportFor(s, next, events, 0, []string{"if damage > 3 then power down", "reenter facing toward the next flag"})
	public := full
	public.Part, public.Player, public.Hand, public.Locked, public.Standing, public.Sheet = PartPublic, "", nil, nil, nil, ""
	private := full
	private.Part, private.List = PartPrivate, "sprint-players@lists.example.org"
	pictures := full
	pictures.Pictures = &Pictures{BoardCID: "board.test-game.3@example.org", TurnCID: "turn.test-game.3@example.org", Width: 400, Height: 300}
	over := full
	over.Over, over.Winner, over.Standings = true, "Twonky", StandingsOf(next)
	over.Standings[0].Winner = true
	out := reportFor(s, next, events, 0, nil)
	out.PlayerOut = true
	out.Robots = append([]RobotStatus(nil), out.Robots...)
	out.Robots[0].Out = true

	for _, c := range []struct {
		name string
		rep  Report
	}{
		{"report", full}, {"report-public", public}, {"report-private", private}, {"report-pictures", pictures},
		{"report-over", over}, {"report-out", out},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, err := set.Text("report.txt.tmpl", c.rep)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name+".txt.golden", text)
			html, err := set.HTML("report.html.tmpl", c.rep)
			if err != nil {
				t.Fatal(err)
			}
			wellFormed(t, html)
			golden(t, c.name+".html.golden", html)

			own := next.Robots[0].Hand
			for _, out := range []string{text, html} {
				if c.rep.Private() && !c.rep.PlayerOut && !c.rep.Over {
					for _, p := range own {
						if !strings.Contains(out, fmt.Sprintf("P%d", p)) {
							t.Errorf("the report lacks its own card P%d", p)
						}
					}
				}
				if !c.rep.Private() && strings.Contains(out, "YOUR HAND") || strings.Contains(out, "Your hand") && !c.rep.Private() {
					t.Errorf("a report without the private part shows a hand")
				}
				if c.rep.Public() != strings.Contains(strings.ToLower(out), "what happened in turn") {
					t.Errorf("public part shown: %v, want %v", !c.rep.Public(), c.rep.Public())
				}
			}
			if c.rep.Pictures != nil {
				for _, id := range []string{c.rep.Pictures.BoardCID, c.rep.Pictures.TurnCID} {
					if !strings.Contains(html, `src="cid:`+id+`"`) {
						t.Errorf("the HTML does not show cid:%s", id)
					}
				}
			}
		})
	}
}

// TestReportShowsOnlyOwnHand: each robot's report lists its own hand and no card of
// another robot's hand (cards of the hand section only: the events name played cards).
func TestReportShowsOnlyOwnHand(t *testing.T) {
	set := loadSet(t)
	s, _, next, events := sprintGame(t, 2)
	for i, r := range next.Robots {
		rep := reportFor(s, next, events, i, nil)
		for _, kind := range []string{"txt", "html"} {
			var out string
			var err error
			if kind == "txt" {
				out, err = set.Text("report.txt.tmpl", rep)
			} else {
				out, err = set.HTML("report.html.tmpl", rep)
			}
			if err != nil {
				t.Fatal(err)
			}
			hand := handPart(out)
			if hand == "" {
				t.Fatalf("%s %s: no hand section", r.Name, kind)
			}
			for _, p := range r.Hand {
				if !strings.Contains(hand, "P"+strconv.Itoa(p)) {
					t.Errorf("%s %s: own card P%d missing", r.Name, kind, p)
				}
			}
			for j, q := range next.Robots {
				if j == i {
					continue
				}
				for _, p := range q.Hand {
					if !contains(r.Hand, p) && strings.Contains(hand, "P"+strconv.Itoa(p)+" ") || strings.Contains(hand, "P"+strconv.Itoa(p)+"</strong>") && !contains(r.Hand, p) {
						t.Errorf("%s %s: shows %s's card P%d", r.Name, kind, q.Name, p)
					}
				}
			}
		}
	}
}

// handPart is the report from the hand's heading to the standing orders.
func handPart(s string) string {
	i := strings.Index(strings.ToLower(s), "your hand for turn")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if k := strings.Index(strings.ToLower(s), "standing orders in force"); k >= 0 {
		s = s[:k]
	}
	return s
}

// wellFormed checks that every element opened is closed in order (HTML void elements
// and optional end tags aside), with encoding/xml in its HTML mode.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("HTML does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != e.Name.Local {
				t.Fatalf("HTML: </%s> closes %v", e.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("HTML: elements never closed: %v", stack)
	}
}

func TestHTMLEscapes(t *testing.T) {
	set := loadSet(t)
	rep := Report{Game: "g", Course: "c", Turn: 1, NextTurn: 2, Player: `<script>alert(1)</script>`,
		Sections: []Section{{Title: "Register 1", Lines: []string{`a & b <b>`}}}, Deadline: "soon",
		Board: "A> <", Sheet: "#orders\n#end\n"}
	out, err := set.HTML("report.html.tmpl", rep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "<script>") || strings.Contains(out, "<b>") || !strings.Contains(out, "a &amp; b &lt;b&gt;") {
		t.Fatalf("values are not escaped:\n%s", out)
	}
	wellFormed(t, out)
	rep.Pictures = &Pictures{BoardCID: `x" onerror="alert(1)`}
	if _, err := set.HTML("report.html.tmpl", rep); err == nil {
		t.Fatal("a Content-ID with quotes was accepted")
	}
}

// TestSheetParses: the order sheet of a report, with cards of the real hand written in,
// is read by orders.Parse as it is and validated against the real state, for robots
// with free, locked and powered-down registers.
func TestSheetParses(t *testing.T) {
	s, _, next, _ := sprintGame(t, 1)
	cases := []struct {
		name   string
		damage int
		down   bool
	}{{"free", 0, false}, {"two locked", 6, false}, {"all locked", 9, false}, {"powered down", 0, true}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := next.Clone()
			r := &st.Robots[1]
			r.Damage = c.damage
			r.Hand = r.Hand[:min(len(r.Hand), 9-c.damage)]
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if r.IsLocked(reg) {
					r.Registers[reg-1] = lockedCard(st, reg)
				}
			}
			if c.down {
				r.Power = adjudicator.PowerDown
				r.Hand = nil
			}
			standing := []string{"if damage > 3 then power down", "reenter facing toward the next flag"}
			sheet := SheetFor("test-game", *r, st.Turn, standing)
			// Gmail and Outlook hard-wrap plain text at 76-78 columns and format=flowed
			// clients at 72: a longer line of the judge's own sheet came back as two lines,
			// the second read as an order (issue 12). Every fixed line fits 72 columns.
			for _, l := range strings.Split(sheet, "\n") {
				if len([]rune(l)) > 72 && !strings.HasPrefix(l, "#   ") {
					t.Errorf("sheet line of %d columns: %q", len([]rune(l)), l)
				}
			}
			filled := fillSheet(sheet, r.Hand)
			sh, err := orders.Parse([]byte(filled))
			if err != nil {
				t.Fatalf("the filled-in sheet does not parse: %v\n%s", err, filled)
			}
			if sh.Robot != r.Name || sh.Turn != st.Turn || sh.Game != "test-game" {
				t.Errorf("header read as %q %q %d", sh.Game, sh.Robot, sh.Turn)
			}
			rep := orders.Validate(s, st, r.Name, sh)
			if !rep.OK() {
				t.Fatalf("the filled-in sheet is not valid: %v\n%s", rep, filled)
			}
			if !c.down && len(sh.Program) == 0 {
				t.Errorf("no program read")
			}
		})
	}
}

// lockedCard is a card no robot holds, to sit in a locked register.
func lockedCard(st *adjudicator.State, reg int) int {
	used := map[int]bool{}
	for _, r := range st.Robots {
		for _, p := range r.Hand {
			used[p] = true
		}
		for _, p := range r.Registers {
			used[p] = true
		}
	}
	for p := 10 + reg*10; ; p += 10 {
		if !used[p] {
			return p
		}
	}
}

// fillSheet writes the first cards of hand into the sheet's empty register lines, as a
// player would.
func fillSheet(sheet string, hand []int) string {
	lines := strings.Split(sheet, "\n")
	k := 0
	for i, l := range lines {
		if len(l) == 3 && l[1] == ':' && l[2] == ' ' && k < len(hand) {
			lines[i] = l + "P" + strconv.Itoa(hand[k])
			k++
		}
	}
	return strings.Join(lines, "\n")
}

func TestTemplatesOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rejected.txt.tmpl"), []byte("custom: {{.Summary}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.html.tmpl"), []byte("<p>{{.Player}}</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load(dir, Source())
	if err != nil {
		t.Fatal(err)
	}
	out, err := set.Text("rejected.txt.tmpl", templates.Rejected{Summary: "no"})
	if err != nil || out != "custom: no" {
		t.Fatalf("override not used: %q, %v", out, err)
	}
	out, err = set.HTML("report.html.tmpl", Report{Player: "<Zoom>"})
	if err != nil || out != "<p>&lt;Zoom&gt;</p>" {
		t.Fatalf("HTML override not used or not escaped: %q, %v", out, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ack.txt.tmpl"), []byte("{{.Broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := templates.Load(dir, Source()); err == nil || !strings.Contains(err.Error(), "ack.txt.tmpl") {
		t.Fatalf("a broken override must name its file, got %v", err)
	}
}

// TestOtherTemplatesGolden renders the acknowledgement, the rejection and the welcome.
func TestOtherTemplatesGolden(t *testing.T) {
	set := loadSet(t)
	s, st := smallGame(t)
	hand, locked := HandOf(s.Deck, st.Robots[0])
	for _, c := range []struct {
		name, tmpl string
		data       any
	}{
		{"ack", "ack.txt.tmpl", Ack{Game: "test-game", Robot: "Zoom", Turn: 2,
			Program:  []Card{{Register: 1, P: 490, Title: "Move 1"}, {Register: 2, P: 670, Title: "Move 2"}, {Register: 3, P: 70, Title: "Rotate Left"}, {Register: 4, P: 80, Title: "Rotate Right"}, {Register: 5, P: 430, Title: "Back Up"}},
			Standing: []string{"if damage > 3 then power down"}, Warnings: []string{"line 3: you hold no Brakes"},
			Forecast: "Forecast for Zoom, turn 2:\n  register 1  Move 1 P490  at 2,4", Deadline: "Mon 2 Mar 2026 18:00 UTC",
			Waiting: "1 of 2 robots have orders in."}},
		{"welcome", "welcome.txt.tmpl", Welcome{Game: "test-game", Course: "tiny", Robot: "Zoom", Secret: "tango-42-secret",
			Board: adjudicator.RenderText(s.Course, st.Robots), Legend: adjudicator.RenderLegend(st.Robots...),
			Hand: hand, Locked: locked, Deadline: "Mon 2 Mar 2026 18:00 UTC",
			Sheet: SheetFor("test-game", st.Robots[0], 1, nil), Judge: "judge@example.org", Turn: 1}},
		{"welcome-takeover", "welcome.txt.tmpl", Welcome{Game: "test-game", Course: "tiny", Robot: "Zoom", Secret: "tango-42-secret",
			Board: adjudicator.RenderText(s.Course, st.Robots), Legend: adjudicator.RenderLegend(st.Robots...),
			Hand: hand, Locked: locked, Deadline: "Mon 9 Mar 2026 18:00 UTC",
			Sheet: SheetFor("test-game", st.Robots[0], 4, nil), Judge: "judge@example.org", Turn: 4, TakeOver: true}},
		// seed 001's option variants: the rules settings, a Bio-Bot's card, a Deluxe
		// Option Package's three, the Scavenger Hunt piles.
		{"welcome-variants", "welcome.txt.tmpl", func() Welcome {
			rules := adjudicator.PostalRules()
			rules.OptionPackage, rules.BioBots, rules.ScavengerHunt, rules.PassTouches = "deluxe", true, 2, true
			w := Welcome{Game: "test-game", Course: "tiny", Robot: "Zoom", Secret: "tango-42-secret",
				Board: adjudicator.RenderText(s.Course, st.Robots), Legend: adjudicator.RenderLegend(st.Robots...),
				Hand: hand, Locked: locked, Deadline: "Mon 2 Mar 2026 18:00 UTC",
				Sheet: SheetFor("test-game", st.Robots[0], 1, nil), Judge: "judge@example.org", Turn: 1,
				RulesName: rules.Name, Rules: rules.Settings()}
			r := st.Robots[0]
			r.Options, r.Bio, r.Offered = []string{"Turret"}, "Turret", []string{"Brakes", "Big Gun", "Flywheel"}
			vs := &adjudicator.State{Piles: [][]string{{"Reflector", "Fourth Gear"}, {}}}
			w.OptionsWelcome(vs, r)
			return w
		}()},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := set.Text(c.tmpl, c.data)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name+".txt.golden", out)
			if strings.HasPrefix(c.name, "welcome") { // the welcome has an HTML part too
				h, err := set.HTML("welcome.html.tmpl", c.data)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+".html.golden", h)
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestOverridesCheckedAtLoad(t *testing.T) {
	for _, tc := range []struct{ file, text, want string }{
		{"report.txt.tmpl", "Hello {{.Nope}}", "fails on sample data"},
		{"reprot.txt.tmpl", "Hello", "overrides no template"},
		{"ack.txt.tmpl", "{{range .Program}}{{.Priority}}{{end}}", "fails on sample data"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := templates.Load(dir, Source()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.file, err, tc.want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rejected.txt.tmpl"), []byte("No: {{.Summary}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := templates.Load(dir, Source()); err != nil {
		t.Fatalf("a good override refused: %v", err)
	}
}

// A robot that draws an option learns in its report what the card does and how to order
// it; another player's report does not carry it.
func TestReportExplainsNewOption(t *testing.T) {
	set := loadSet(t)
	s, _, next, events := sprintGame(t, 1)
	me := next.Robots[0].Name
	next.Robots[0].Options = []string{"Brakes", "Double Laser"}
	events = append(events,
		adjudicator.Event{Kind: adjudicator.EvOptionGain, Robot: me, Option: "Brakes", Phase: "end"},
		adjudicator.Event{Kind: adjudicator.EvOptionGain, Robot: me, Option: "Double Laser", Phase: "end"})
	for i := range next.Robots {
		rep := reportFor(s, next, events, i, nil)
		rep.NewOptions = NewOptionsOf(events, next.Robots[i])
		out, err := set.Text("report.txt.tmpl", rep)
		if err != nil {
			t.Fatal(err)
		}
		html, err := set.HTML("report.html.tmpl", rep)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"YOUR NEW OPTION CARD: Brakes", "With Move 1 you may stay put", "use Brakes in register 2",
			"YOUR NEW OPTION CARD: Double Laser", "It always works"} {
			if got := strings.Contains(out, want); got != (i == 0) {
				t.Errorf("%s's report: %q present %v", next.Robots[i].Name, want, got)
			}
		}
		if got := strings.Contains(html, "Your new option card: Brakes"); got != (i == 0) {
			t.Errorf("%s's HTML report: new option present %v", next.Robots[i].Name, got)
		}
	}
}
