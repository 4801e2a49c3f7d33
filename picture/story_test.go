package picture

import (
	"bytes"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// A register's picture tells the register (issue 22): its caption names every card
// played in it, in the order played; a robot that moved leaves a trail from where it
// stood; the reader's robot is ringed.
func TestRegisterPicturesTellTheRegister(t *testing.T) {
	c := loadCourse(t, "sprint")
	d, err := DemoTurn(c, 4, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, regs := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
	if len(regs) != adjudicator.Registers {
		t.Fatalf("%d register pictures, want %d", len(regs), adjudicator.Registers)
	}
	deck := adjudicator.StandardDeck()
	robots := append([]adjudicator.Robot(nil), d.Before...)
	idx := map[string]int{}
	for i, r := range robots {
		idx[r.Name] = i
	}
	trailsSeen := 0
	for _, rf := range regs {
		start := map[string]adjudicator.Pos{}
		for _, r := range robots {
			start[r.Name] = r.Pos
		}
		var played []string
		moved := map[string]bool{}
		for _, e := range d.Events {
			if e.Register != rf.Register {
				continue
			}
			if e.Kind == adjudicator.EvCard && e.Phase == "move" {
				played = append(played, cardLabel(deck, e.Robot, e.Card))
			}
			adjudicator.ApplyEvent(robots, e)
			if e.Kind == adjudicator.EvMove {
				moved[e.Robot] = true
			}
		}
		if want := "Register " + itoaP(rf.Register) + " — " + strings.Join(played, " · "); rf.Caption != want {
			t.Errorf("register %d caption %q, want %q", rf.Register, rf.Caption, want)
		}
		for name := range moved {
			i := idx[name]
			r := robots[i]
			if !r.Active() || r.Virtual || r.Pos == start[name] {
				continue
			}
			if n := cell(rf.Image, c, start[name], len(robots))[uint8(cTint0+i%seats)]; n == 0 {
				t.Errorf("register %d: %s moved from %v to %v and left no trail on %v", rf.Register, name, start[name], r.Pos, start[name])
			} else {
				trailsSeen++
			}
		}
	}
	if trailsSeen == 0 {
		t.Error("no robot moved in five registers: the test shows nothing")
	}
}

func itoaP(n int) string { return string(rune('0' + n)) }

// The reader's own robot is ringed: the picture for Zoom differs from the public one on
// Zoom's square and nowhere on the board far from it.
func TestYourRobotIsRinged(t *testing.T) {
	c := loadCourse(t, "sprint")
	at := adjudicator.Pos{X: 6, Y: 6}
	robots := []adjudicator.Robot{{Name: "Zoom", Pos: at, Facing: adjudicator.East, Lives: 3},
		{Name: "Hulk", Pos: adjudicator.Pos{X: 2, Y: 12}, Facing: adjudicator.North, Lives: 3}}
	public := Course(c, robots, Options{})
	yours := Course(c, robots, Options{You: "Zoom"})
	if a, b := cell(public, c, at, 2)[cWhite], cell(yours, c, at, 2)[cWhite]; b <= a {
		t.Errorf("Zoom's square: %d white pixels in the reader's picture, %d in the public one; want a ring", b, a)
	}
	h := adjudicator.Pos{X: 2, Y: 12}
	if a, b := cell(public, c, h, 2), cell(yours, c, h, 2); a[cWhite] != b[cWhite] || a[cInk] != b[cInk] {
		t.Errorf("Hulk's square changed in Zoom's picture")
	}
}

// The legend says in words what a robot's state is: damage, lives, flags, facing,
// power and option cards (the bug: "Twonky d0 L3 F0").
func TestLegendInWords(t *testing.T) {
	for _, tc := range []struct {
		r             adjudicator.Robot
		first, second string
	}{
		{adjudicator.Robot{Name: "Twonky", Lives: 3, Facing: adjudicator.North},
			"Twonky: 0 damage, 3 lives, 0 of 2 flags", "faces north; no option cards"},
		{adjudicator.Robot{Name: "Hulk", Damage: 4, Lives: 1, Flags: 1, Facing: adjudicator.West, Power: adjudicator.PowerDown, Options: []string{"Brakes", "Turret"}},
			"Hulk: 4 damage, 1 life, 1 of 2 flags", "faces west; powered down; options: Brakes, Turret"},
		{adjudicator.Robot{Name: "Zoe", Lives: 2, Destroyed: true},
			"Zoe: destroyed, 0 damage, 2 lives, 0 of 2 flags", "no option cards"},
	} {
		first, second := legendWords(&tc.r, 2)
		if first != tc.first || second != tc.second {
			t.Errorf("legend of %s: %q / %q, want %q / %q", tc.r.Name, first, second, tc.first, tc.second)
		}
	}
}

func TestWrapCaption(t *testing.T) {
	got := wrapCaption("Cards in the order played: P810 Twitch M3 · P750 Zoom M2 · P460 Blue B", 40)
	want := []string{"Cards in the order played: P810 Twitch", "M3 · P750 Zoom M2 · P460 Blue B"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapCaption = %q, want %q", got, want)
	}
}

// A reader's copy of a turn (Frame.For) rings their robot in every register picture
// and every GIF frame where it stands, and is the very picture drawn for that reader
// (Options.You); the shared frames stay unringed (issue 22: only the board after the
// turn was ringed).
func TestTurnFramesForReader(t *testing.T) {
	c := loadCourse(t, "sprint")
	d, err := DemoTurn(c, 4, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	you := d.Before[1].Name
	frames, regs := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
	drawn, drawnRegs := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn, You: you})
	mine := FramesFor(frames, you)
	if len(mine) != len(drawn) || len(regs) != len(drawnRegs) {
		t.Fatalf("%d frames for the reader, %d drawn with You", len(mine), len(drawn))
	}
	differ := 0
	for i := range mine {
		if !bytes.Equal(mine[i].Image.Pix, drawn[i].Image.Pix) {
			t.Errorf("frame %d: the reader's copy is not the picture drawn for the reader", i)
		}
		if !bytes.Equal(mine[i].Image.Pix, frames[i].Image.Pix) {
			differ++
		}
	}
	if differ != len(frames) {
		t.Errorf("%d of %d GIF frames ring %s", differ, len(frames), you)
	}
	for i, r := range regs {
		m := r.For(you)
		if !bytes.Equal(m.Image.Pix, drawnRegs[i].Image.Pix) {
			t.Errorf("register %d: the reader's copy is not the picture drawn for the reader", r.Register)
		}
		if bytes.Equal(m.Image.Pix, r.Image.Pix) {
			t.Errorf("register %d: %s is not ringed in the reader's copy", r.Register, you)
		}
	}
	// The shared frames were not touched by the copies.
	again, _ := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
	for i := range frames {
		if !bytes.Equal(again[i].Image.Pix, frames[i].Image.Pix) {
			t.Fatalf("frame %d changed when a reader's copy was made", i)
		}
	}
}

// BenchmarkReaderCopy is what one reader's copy of a turn's pictures costs beyond the
// shared drawing: the GIF's frames ringed and encoded, and the five register
// pictures ringed and PNG-encoded at the default level (as judge/yourpictures.go does).
func BenchmarkReaderCopy(b *testing.B) {
	c := loadCourse(b, "sprint")
	d, err := DemoTurn(c, 4, 1, 3)
	if err != nil {
		b.Fatal(err)
	}
	frames, regs := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
	you := d.Before[1].Name
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := EncodeFrames(&buf, FramesFor(frames, you), Options{}); err != nil {
			b.Fatal(err)
		}
		for _, r := range regs {
			if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, r.For(you).Image); err != nil {
				b.Fatal(err)
			}
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "bytes")
}

// TestLegendCopiedIsDrawn: a turn's frames whose legend is copied from the frame before
// (painter.legend) are the frames with every legend drawn, and ring the same places,
// on turns with damage, destruction and power downs, postal and 2023.
func TestLegendCopiedIsDrawn(t *testing.T) {
	for _, tc := range []struct {
		course string
		robots int
		turn   int
	}{{"sprint", 4, 3}, {"stampede", 8, 4}, {"long-haul", 3, 6}} {
		c := loadCourse(t, tc.course)
		d, err := DemoTurn(c, tc.robots, 11, tc.turn)
		if err != nil {
			t.Fatal(err)
		}
		for _, rules := range []string{"", "2023"} {
			opt := Options{Turn: d.Turn, Rules: rules}
			frames, regs := TurnStory(c, d.Before, d.Events, opt)
			opt.drawAll = true
			all, allRegs := TurnStory(c, d.Before, d.Events, opt)
			for _, r := range regs {
				frames = append(frames, r.Frame)
			}
			for _, r := range allRegs {
				all = append(all, r.Frame)
			}
			for k := range frames {
				if !bytes.Equal(frames[k].Image.Pix, all[k].Image.Pix) || !reflect.DeepEqual(frames[k].you, all[k].you) {
					t.Errorf("%s %s turn %d, picture %d: the legend copied is not the legend drawn", tc.course, rules, tc.turn, k)
				}
			}
		}
	}
}
