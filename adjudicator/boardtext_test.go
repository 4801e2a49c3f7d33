package adjudicator

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseBoardElements(t *testing.T) {
	text := `board demo 4x3
# a comment line
X      bE      BN:EW  gL       # trailing comment
gR     pN135   c24    lS2|N
w1+s1  w2|NW   f1     bE+c24|S
`
	bf, err := ParseBoard("demo.board", text)
	if err != nil {
		t.Fatal(err)
	}
	b := bf.Board
	at := func(x, y int) Square { return *b.At(Pos{x, y}) }
	if bf.Name != "demo" || b.W != 4 || b.H != 3 {
		t.Fatalf("got %q %dx%d", bf.Name, b.W, b.H)
	}
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"pit", at(0, 0).Floor, FloorPit},
		{"belt", at(1, 0).Belt, Belt{Kind: BeltNormal, Dir: East}},
		{"merge", at(2, 0).Belt, Belt{Kind: BeltExpress, Dir: North, TurnFrom: Edges(0).With(East).With(West)}},
		{"gear left", at(3, 0).Gear, TurnLeft},
		{"gear right", at(0, 1).Gear, TurnRight},
		{"pusher", at(1, 1).Pusher, Pusher{Dir: North, Registers: RegisterSet(0).With(1).With(3).With(5)}},
		{"crusher", at(2, 1).Crusher, RegisterSet(0).With(2).With(4)},
		{"laser", at(3, 1).Laser, Laser{Dir: South, Beams: 2}},
		{"laser wall", at(3, 1).Walls, Edges(0).With(North)},
		{"wall copied to the neighbour", at(3, 0).Walls, Edges(0).With(South)},
		{"wrench", at(0, 2).Repair, 1},
		{"start", at(0, 2).Start, 1},
		{"double wrench", at(1, 2).Repair, 2},
		{"walls NW", at(1, 2).Walls, Edges(0).With(North).With(West)},
		{"west neighbour's east wall", at(0, 2).Walls, Edges(0).With(East)},
		{"flag", at(2, 2).Flag, 1},
		{"crusher on belt", at(3, 2).Crusher, RegisterSet(0).With(2).With(4)},
		{"belt under crusher", at(3, 2).Belt.Dir, East},
		{"edge wall", at(3, 2).Walls, Edges(0).With(South)},
		{"flags", bf.Flags, []Pos{{2, 2}}},
		{"starts", bf.Starts, []Start{{Pos: Pos{0, 2}, Facing: North}}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, c.got, c.want)
		}
	}
}

func TestParseBoardErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string // each must appear in the error, in this order
	}{
		{"unknown belt direction", "board a 3x1\n. bQ .\n", []string{`a.board:2:3: unknown token "bQ" (want a belt direction N, E, S or W)`}},
		{"column counts bytes from 1", "board a 3x1\n.   .   bQ\n", []string{`a.board:2:9: unknown token "bQ"`}},
		{"element after plus", "board a 2x1\n. bE+zz\n", []string{`a.board:2:6: unknown token "zz"`}},
		{"bad wall side", "board a 2x1\n. .|NQ\n", []string{`a.board:2:6: unknown wall side "Q"`}},
		{"empty walls", "board a 2x1\n. .|\n", []string{`a.board:2:5: nothing after |`}},
		{"no header", ". . .\n", []string{`a.board:1:1: unexpected "." (want the header line: board NAME WxH)`}},
		{"bad size", "board a 65x2\n", []string{`a.board:1:9: bad size "65x2" (want WxH, each 1 to 64`}},
		{"zero size", "board a 0x2\n", []string{`bad size "0x2"`}},
		{"bad name", "board a/b 1x1\n.\n", []string{`a.board:1:7: bad board name "a/b"`}},
		{"short row", "board a 3x2\n. .\n. . .\n", []string{`a.board:2: row has 2 squares (want 3)`}},
		{"long row", "board a 2x1\n. . .\n", []string{`a.board:2:5: row has 3 squares (want 2)`}},
		{"missing rows", "board a 2x3\n. .\n", []string{`a.board:3: board ends after 1 rows`}},
		{"extra rows", "board a 1x1\n.\n.\n", []string{`a.board:3:1: too many rows`}},
		{"beams 0", "board a 1x1\nlS0\n", []string{`a.board:2:1: unknown token "lS0" (want 1, 2 or 3 beams`}},
		{"beams 4", "board a 1x1\nlS4\n", []string{`want 1, 2 or 3 beams`}},
		{"register 6", "board a 1x1\npN16\n", []string{`a.board:2:1: unknown token "pN16" (want the pusher's registers 1-5 after its direction, e.g. pN135: "6" is not a register)`}},
		{"register twice", "board a 1x1\nc22\n", []string{`register 2 twice`}},
		{"no registers", "board a 1x1\nc\n", []string{`none given`}},
		{"start 9", "board a 1x1\ns9\n", []string{`want a start square s1 to s8`}},
		{"start 0", "board a 1x1\ns0\n", []string{`want a start square s1 to s8`}},
		{"duplicate start", "board a 2x2\ns1 .\n. s1\n", []string{`a.board:3:3: start 1 twice (also at line 2 column 1)`}},
		{"duplicate flag", "board a 2x1\nf1 f1\n", []string{`a.board:2:4: flag 1 twice`}},
		{"start gap", "board a 2x1\ns1 s3\n", []string{`a.board:2:4: start 3 without start 2`}},
		{"flag gap", "board a 2x1\nf2 .\n", []string{`flag 2 without flag 1`}},
		{"two belts", "board a 1x1\nbN+bE\n", []string{`second belt on one square`}},
		{"pit with belt", "board a 1x1\nX+bN\n", []string{`a pit or drain holds nothing else`}},
		{"gear on belt", "board a 1x1\nbN+gL\n", []string{`a gear and a belt on one square`}},
		{"curve from behind", "board a 1x1\nbN:S\n", []string{`a N belt turns robots carried in from W or E only`}},
		{"dot joined", "board a 1x1\n.+w1\n", []string{`want . alone`}},
		{"long token", "board a 1x1\n" + strings.Repeat("w", 70) + "\n", []string{`square token too long`}},
		{"long line", "board a 1x1\n" + strings.Repeat(" ", 5000) + ".\n", []string{`a.board:2: line too long`}},
		{"several errors", "board a 3x2\nbQ . zz\n. lS9 .\n", []string{`a.board:2:1: unknown token "bQ"`, `a.board:2:6: unknown token "zz"`, `a.board:3:3: unknown token "lS9"`}},
		{"empty", "# nothing\n\n", []string{`a.board: empty board file`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bf, err := ParseBoard("a.board", c.text)
			if err == nil {
				t.Fatalf("parsed without error: %+v", bf)
			}
			var te *TextErrors
			if !errors.As(err, &te) {
				t.Fatalf("error %T is not *TextErrors: %v", err, err)
			}
			msg := err.Error()
			for _, w := range c.want {
				i := strings.Index(msg, w)
				if i < 0 {
					t.Fatalf("error\n%s\ndoes not contain\n%s", msg, w)
				}
				msg = msg[i+len(w):]
			}
		})
	}
}

func TestParseBoardErrorLimit(t *testing.T) {
	text := "board a 30x1\n" + strings.Repeat("zz ", 30) + "\n"
	_, err := ParseBoard("a.board", text)
	var te *TextErrors
	if !errors.As(err, &te) {
		t.Fatalf("got %v", err)
	}
	if len(te.List) != maxErrors || te.More != 10 {
		t.Errorf("kept %d, more %d; want %d and 10", len(te.List), te.More, maxErrors)
	}
	if !strings.HasSuffix(err.Error(), "(and 10 more errors)") {
		t.Errorf("message does not end with the count: %q", err.Error()[len(err.Error())-40:])
	}
}

func TestParseBoardRows(t *testing.T) {
	rows := []string{
		"# scenario board",
		"s1  bE   bE:N  .",
		"",
		".   .    bN    f1|E",
	}
	bf, err := ParseBoardRows("x.scenario", 10, rows)
	if err != nil {
		t.Fatal(err)
	}
	if bf.Board.W != 4 || bf.Board.H != 2 {
		t.Fatalf("size %dx%d, want 4x2", bf.Board.W, bf.Board.H)
	}
	if !reflect.DeepEqual(bf.Flags, []Pos{{3, 1}}) || !reflect.DeepEqual(bf.Starts, []Start{{Pos{0, 0}, North}}) {
		t.Errorf("flags %v starts %v", bf.Flags, bf.Starts)
	}
	_, err = ParseBoardRows("x.scenario", 10, []string{". .", ". . .", ". bZ"})
	if err == nil {
		t.Fatal("ragged rows parsed")
	}
	for _, w := range []string{"x.scenario:11:5: row has 3 squares (want 2)", `x.scenario:12:3: unknown token "bZ"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if _, err := ParseBoardRows("x", 1, nil); err == nil {
		t.Error("no rows parsed")
	}
}

func TestFormatBoardRoundTrip(t *testing.T) {
	names := Boards()
	if len(names) == 0 {
		t.Fatal("no shipped boards")
	}
	inputs := map[string]string{}
	for _, n := range names {
		text, err := library.ReadFile("data/boards/" + n + ".board")
		if err != nil {
			t.Fatal(err)
		}
		inputs[n] = string(text)
	}
	inputs["everything"] = "board everything 3x3\nX bE:N+c135|W BS:EW\ngL+w1 gR+w2|NESW pW24|E\nlN3|S s1+f2 f1\n"
	for n, text := range inputs {
		t.Run(n, func(t *testing.T) {
			a, err := ParseBoard(n, text)
			if err != nil {
				t.Fatal(err)
			}
			out := FormatBoard(a)
			b, err := ParseBoard(n, out)
			if err != nil {
				t.Fatalf("formatted board does not parse: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("round trip differs:\n%s", out)
			}
			if again := FormatBoard(b); again != out {
				t.Errorf("format is not stable:\n%s\n%s", out, again)
			}
		})
	}
}

func TestFormatBoardWritesEachWallOnce(t *testing.T) {
	bf, err := ParseBoard("w", "board w 3x1\n.|E lW1|E .\n")
	if err != nil {
		t.Fatal(err)
	}
	// The first wall belongs to neither mount: it goes on the east square's west side.
	// The second is the laser's mount: it stays on the laser's square.
	want := "board w 3x1\n.      lW1|EW .\n"
	if got := FormatBoard(bf); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestRotatePos(t *testing.T) {
	b := NewBoard(3, 2)
	b.At(Pos{2, 0}).Repair = 1 // a marker in the north-east corner
	for q := -1; q <= 4; q++ {
		r := b.Rotated(q)
		p := rotatePos(Pos{2, 0}, 3, 2, q)
		if !r.In(p) || r.At(p).Repair != 1 {
			t.Errorf("rotate %d: marker not at %v", q, p)
		}
	}
}

func TestRotatedElements(t *testing.T) {
	bf, err := ParseBoard("r", "board r 2x1\nbN:E+c1|W lE2|W\n")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q             int
		belt, laser   Pos
		beltDir, lDir Dir
		turn, wall    Dir
	}{
		{0, Pos{0, 0}, Pos{1, 0}, North, East, East, West},
		{1, Pos{0, 0}, Pos{0, 1}, East, South, South, North},
		{2, Pos{1, 0}, Pos{0, 0}, South, West, West, East},
		{3, Pos{0, 1}, Pos{0, 0}, West, North, North, South},
	}
	for _, c := range cases {
		r := bf.Board.Rotated(c.q)
		s := r.At(c.belt)
		if s.Belt.Dir != c.beltDir || !s.Belt.TurnFrom.Has(c.turn) || !s.Walls.Has(c.wall) || s.Crusher == 0 {
			t.Errorf("rotate %d: belt square %+v", c.q, *s)
		}
		if l := r.At(c.laser).Laser; l.Dir != c.lDir || l.Beams != 2 {
			t.Errorf("rotate %d: laser %+v", c.q, l)
		}
	}
}

// testBoards resolves a few small boards for the course tests.
func testBoards(t *testing.T) func(string) (*BoardFile, error) {
	texts := map[string]string{
		"two":   "board two 2x2\nbE w1|N\n. X\n",
		"pad":   "board pad 2x1\ns2 s1\n",
		"flags": "board flags 2x1\nf1 f2\n",
	}
	return func(name string) (*BoardFile, error) {
		text, ok := texts[name]
		if !ok {
			return nil, errors.New("no such board")
		}
		return ParseBoard(name+".board", text)
	}
}

func TestParseCourse(t *testing.T) {
	text := `course demo
players 1-2
place two at 0,0 rotate 90
place pad at 3,1
flag 1 at 1,0
start 2 at 4,1 facing E
start 1 at 0,0
`
	c, err := ParseCourse("demo.course", text, testBoards(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "demo" || c.MinPlayers != 1 || c.MaxPlayers != 2 || c.Boards != 2 {
		t.Errorf("course %+v", c)
	}
	// two turned a quarter: its 2x2 stays 2x2, pad beside it at 3,1 leaves a gap column.
	if c.Board.W != 5 || c.Board.H != 2 {
		t.Fatalf("size %dx%d, want 5x2", c.Board.W, c.Board.H)
	}
	b := c.Board
	checks := []struct {
		name      string
		got, want any
	}{
		// bE at 0,0 turns to a south belt at 1,0; w1 at 1,0 (north wall) to 1,1 (east wall).
		{"rotated belt", b.At(Pos{1, 0}).Belt, Belt{Kind: BeltNormal, Dir: South}},
		{"rotated wrench", b.At(Pos{1, 1}).Repair, 1},
		{"rotated wall", b.At(Pos{1, 1}).Walls.Has(East), true},
		{"wall copied across the gap", b.At(Pos{2, 1}).Walls.Has(West), true},
		{"rotated pit", b.At(Pos{0, 1}).Floor, FloorPit},
		{"rotated floor", b.At(Pos{0, 0}).Floor, FloorPlain},
		{"gap is a pit", b.At(Pos{2, 0}).Floor, FloorPit},
		{"corner outside the pad is a pit", b.At(Pos{4, 0}).Floor, FloorPit},
		{"flags", c.Flags, []Pos{{1, 0}}},
		{"flag on the square", b.At(Pos{1, 0}).Flag, 1},
		{"starts", c.Starts, []Start{{Pos{0, 0}, North}, {Pos{4, 1}, East}}},
		{"start numbers from the course", b.At(Pos{4, 1}).Start, 2},
		{"board start numbers replaced", b.At(Pos{3, 1}).Start, 0},
		{"parts", c.Parts, []Placement{{"two", Pos{0, 0}, 1}, {"pad", Pos{3, 1}, 0}}},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s: got %+v, want %+v", ch.name, ch.got, ch.want)
		}
	}
}

func TestParseCourseTakesBoardStartsAndFlags(t *testing.T) {
	text := "course c\nplayers 2\nplace flags at 0,0\nplace pad at 0,1 rotate 180\n"
	c, err := ParseCourse("c.course", text, testBoards(t))
	if err != nil {
		t.Fatal(err)
	}
	// pad turned half way round: s2 s1 becomes s1 s2, both facing south.
	want := []Start{{Pos{0, 1}, South}, {Pos{1, 1}, South}}
	if !reflect.DeepEqual(c.Starts, want) {
		t.Errorf("starts %v, want %v", c.Starts, want)
	}
	if !reflect.DeepEqual(c.Flags, []Pos{{0, 0}, {1, 0}}) {
		t.Errorf("flags %v", c.Flags)
	}
}

func TestParseCourseErrors(t *testing.T) {
	base := "course c\nplayers 1-2\nplace pad at 0,1\nplace flags at 0,0\n"
	cases := []struct {
		name, text string
		want       []string
	}{
		{"no header", "players 2\n", []string{`c.course:1:1: unexpected "players" (want the header line: course NAME)`}},
		{"unknown line", base + "flags 1 at 0,0\n", []string{`c.course:5:1: unknown line "flags"`}},
		{"unknown board", "course c\nplayers 2\nplace nope at 0,0\n", []string{`c.course:3:7: board "nope": no such board`}},
		{"bad rotation", "course c\nplayers 2\nplace pad at 0,0 rotate 45\n", []string{`c.course:3:25: bad rotation "45"`}},
		{"bad position", "course c\nplayers 2\nplace pad at 0;0\n", []string{`c.course:3:14: bad position "0;0"`}},
		{"bad players", "course c\nplayers 3-2\nplace pad at 0,0\n", []string{`c.course:2:9: bad players "3-2"`}},
		{"too many players", "course c\nplayers 9\nplace pad at 0,0\n", []string{`bad players "9"`}},
		{"more players than starts", "course c\nplayers 3\nplace pad at 0,0\nflag 1 at 0,0\n", []string{`c.course: players 3-3 but only 2 start squares`}},
		{"no players", "course c\nplace pad at 0,0\n", []string{`c.course: no players line`}},
		{"no boards", "course c\nplayers 2\n", []string{`c.course: no boards placed`}},
		{"overlap", "course c\nplayers 2\nplace pad at 0,0\nplace two at 1,0\n", []string{`c.course:4: board "two" at 1,0 overlaps board "pad" placed at line 3`}},
		{"flag in gap", "course c\nplayers 2\nplace pad at 0,0\nplace two at 3,0\nflag 1 at 2,0\n", []string{`c.course:5: flag 1 at 2,0 is in a pit`}},
		{"flag off", base + "flag 1 at 9,9\n", []string{`c.course:5: flag 1 at 9,9 is off the course (2x2)`}},
		{"flag twice", base + "flag 1 at 0,0\nflag 1 at 1,0\n", []string{`c.course:6: flag 1 twice (also at line 5)`}},
		{"flag gap", base + "flag 2 at 0,0\n", []string{`c.course:5: flag 2 without flag 1`}},
		{"shared square", base + "start 1 at 0,1\nstart 2 at 0,1\n", []string{`c.course:6: start 2 at 0,1 shares its square with start 1`}},
		{"bad facing", base + "start 1 at 0,1 facing up-ish\n", []string{`c.course:5:23: bad facing "up-ish"`}},
		{"no flags", "course c\nplayers 2\nplace pad at 0,0\n", []string{`c.course: course "c": no flags`}},
		{"board errors shown", "course c\nplayers 2\nplace bad at 0,0\n", []string{`c.course:3:7: board "bad": no such board`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCourse("c.course", c.text, testBoards(t))
			if err == nil {
				t.Fatal("parsed without error")
			}
			msg := err.Error()
			for _, w := range c.want {
				i := strings.Index(msg, w)
				if i < 0 {
					t.Fatalf("error\n%s\ndoes not contain\n%s", msg, w)
				}
				msg = msg[i+len(w):]
			}
		})
	}
}

// FuzzParseBoard: hostile board text never panics or hangs; whatever parses formats
// back to the same board; and the same text as rows or as a course is handled too.
// Seeds: the shipped boards and courses, plus the broken inputs in testdata/fuzz.
func FuzzParseBoard(f *testing.F) {
	for _, n := range Boards() {
		text, err := library.ReadFile("data/boards/" + n + ".board")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	for _, n := range Courses() {
		text, err := library.ReadFile("data/courses/" + n + ".course")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	small := func(name string) (*BoardFile, error) {
		return ParseBoard(name, "board "+name+" 2x2\ns1 f1\nbE:N s2|W\n")
	}
	f.Fuzz(func(t *testing.T, text string) {
		bf, err := ParseBoard("fuzz.board", text)
		if err == nil {
			out := FormatBoard(bf)
			again, err := ParseBoard("fuzz.board", out)
			if err != nil {
				t.Fatalf("formatted board does not parse: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(bf, again) {
				t.Fatalf("round trip differs:\n%s", out)
			}
			_ = RenderText(bf.Course(), nil)
		} else if te, ok := err.(*TextErrors); !ok || len(te.List) == 0 || len(te.List) > maxErrors {
			t.Fatalf("error %T %v", err, err)
		}
		if len(text) < 1<<16 {
			if rows, err := ParseBoardRows("fuzz", 1, strings.Split(text, "\n")); err == nil {
				_ = FormatBoard(rows)
			}
		}
		if c, err := ParseCourse("fuzz.course", text, small); err == nil {
			if err := c.Check(); err != nil {
				t.Fatalf("course passed ParseCourse but not Check: %v", err)
			}
			_ = RenderText(c, nil)
		}
	})
}
