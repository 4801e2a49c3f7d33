package rja

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

var update = flag.Bool("update", false, "rewrite golden files")

func encode(t testing.TB, a Archive) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTripAndReplay(t *testing.T) {
	for _, tc := range []struct {
		course string
		robots int
	}{{"sprint", 3}, {"long-haul", 5}, {"stampede", 8}} {
		t.Run(tc.course, func(t *testing.T) {
			a := playGame(t, tc.course, tc.robots, 25, 11, 0)
			b := encode(t, a)
			got, err := Read(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if again := encode(t, got); !bytes.Equal(again, b) {
				t.Fatalf("write(read(x)) differs from x")
			}
			turns := 0
			if err := Replay(&got, nil, -1, func(s Step) error { turns++; return nil }); err != nil {
				t.Fatal(err)
			}
			if turns != len(a.Turns) {
				t.Fatalf("replayed %d turns, archive has %d", turns, len(a.Turns))
			}
		})
	}
}

// TestTamperedCardNamesTheTurn: one card changed for another in the robot's hand: the
// replay fails at that turn, never before it.
func TestTamperedCardNamesTheTurn(t *testing.T) {
	a := playGame(t, "sprint", 3, 20, 5, 50)
	if len(a.Turns) <= 12 {
		t.Fatalf("game ended after %d turns", len(a.Turns)-1)
	}
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	var hands [][]int // robot 1's hand before each turn
	_ = Replay(&a, setup, -1, func(s Step) error {
		hands = append(hands, s.After.Robots[1].Hand)
		return nil
	})
	const k = 12
	prog := a.Turns[k].Orders[1].Program
	exact := 0
	for _, c := range hands[k-1] {
		if containsCard(prog, c) {
			continue
		}
		b := Read2(t, encode(t, a)) // a fresh copy
		b.Turns[k].Orders[1].Program[0] = c
		err := Replay(&b, setup, -1, nil)
		var re *ReplayError
		if !errors.As(err, &re) {
			t.Fatalf("card %d in register 1 of turn %d: replay gave %v, want a ReplayError", c, k, err)
		}
		if re.Turn < k {
			t.Fatalf("tampered turn %d but the replay failed at turn %d", k, re.Turn)
		}
		if re.Turn == k {
			exact++
			if !strings.Contains(re.Error(), fmt.Sprintf("turn %d:", k)) {
				t.Errorf("error %q does not name turn %d", re, k)
			}
		}
	}
	if exact == 0 {
		t.Fatalf("no tampered card was caught at turn %d", k)
	}
	// A card not in the hand at all: the engine refuses the program at that turn.
	b := Read2(t, encode(t, a))
	b.Turns[k].Orders[1].Program[0] = 9999
	var re *ReplayError
	if err := Replay(&b, setup, -1, nil); !errors.As(err, &re) || re.Turn != k || re.Err == nil {
		t.Fatalf("foreign card: got %v, want an error at turn %d", err, k)
	}
}

func containsCard(p [adjudicator.Registers]int, c int) bool {
	for _, x := range p {
		if x == c {
			return true
		}
	}
	return false
}

// Read2 reads b, failing the test on error.
func Read2(t testing.TB, b []byte) Archive {
	t.Helper()
	a, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTamperedHashAndSetup(t *testing.T) {
	a := playGame(t, "sprint", 2, 6, 3, 0)
	for _, tc := range []struct {
		name string
		edit func(*Archive)
		turn int
	}{
		{"hash of turn 4", func(a *Archive) { a.Turns[4].Hash = strings.Repeat("0", 64) }, 4},
		{"seed", func(a *Archive) { a.Seed++ }, -1},
		{"robot renamed", func(a *Archive) { a.Robots[1] = "Impostor" }, -1},
		{"seed, no sums", func(a *Archive) { a.Seed++; a.Sums = nil }, 0},
		{"robot renamed, no sums", func(a *Archive) { a.Robots[1] = "Impostor"; a.Sums = nil }, 0},
		{"missed policy", func(a *Archive) { a.Turns[2].Orders[0].Missed = "powerdown" }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Read2(t, encode(t, a))
			tc.edit(&b)
			err := Replay(&b, nil, -1, nil)
			if tc.turn < 0 {
				// The header's sums catch it before any turn is played.
				var se *SetupError
				if !errors.As(err, &se) {
					t.Fatalf("got %v, want a *SetupError", err)
				}
				return
			}
			var re *ReplayError
			if !errors.As(err, &re) || re.Turn != tc.turn {
				t.Fatalf("got %v, want a failure at turn %d", err, tc.turn)
			}
		})
	}
}

// TestShippedCoursesInline: every shipped course, carried inline and rebuilt, is the
// same course and plays the same game.
func TestShippedCoursesInline(t *testing.T) {
	for _, name := range adjudicator.Courses() {
		t.Run(name, func(t *testing.T) {
			shipped, err := adjudicator.LoadCourse(name)
			if err != nil {
				t.Fatal(err)
			}
			if shipped.Rules != "" {
				// Archives of 2023 games are not built yet (docs/rules-2023.md).
				t.Skipf("course %s is for the %s rules", name, shipped.Rules)
			}
			in, err := Inline(shipped, adjudicator.LoadBoard)
			if err != nil {
				t.Fatal(err)
			}
			rebuilt, err := in.Build()
			if err != nil {
				t.Fatal(err)
			}
			if d := SameCourse(shipped, rebuilt); d != "" {
				t.Fatalf("rebuilt course differs: %s", d)
			}
			if fmt.Sprint(shipped.Parts) != fmt.Sprint(rebuilt.Parts) {
				t.Fatalf("parts: %v, rebuilt %v", shipped.Parts, rebuilt.Parts)
			}
			// The same game on both: a game recorded on the shipped course replays on
			// the rebuilt one (playGame records with the shipped course's setup).
			a := playGame(t, name, 4, 15, 21, 0)
			if err := Replay(&a, nil, -1, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestInlineSingleBoardFloor(t *testing.T) {
	bf, err := adjudicator.LoadBoard("launchpad")
	if err != nil {
		t.Fatal(err)
	}
	c := bf.Course()
	if len(c.Starts) == 0 {
		t.Fatal("launchpad has no start squares")
	}
	c.Flags = []adjudicator.Pos{c.Starts[len(c.Starts)-1].Pos}
	c.Starts = c.Starts[:len(c.Starts)-1]
	c.MaxPlayers = len(c.Starts)
	in, err := Inline(c, nil) // no board lookup: the floor itself is written
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := in.Build()
	if err != nil {
		t.Fatal(err)
	}
	if d := SameCourse(c, rebuilt); d != "" {
		t.Fatalf("differs: %s", d)
	}
}

// TestFormatGolden pins the format: a short game's archive, byte for byte.
func TestFormatGolden(t *testing.T) {
	a := playGame(t, "sprint", 2, 3, 1, 0)
	got := encode(t, a)
	path := filepath.Join("testdata", "sprint-3.rja")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("archive differs from %s (run with -update if the change is meant)", path)
	}
	if !bytes.HasPrefix(got, []byte("rallyjudge-archive 1\n{")) {
		t.Fatalf("archive starts %q", got[:30])
	}
}
