package roborally

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/internal/parallel"
	"github.com/rallyjudge/rallyjudge/picture"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// A turn's pictures (game.Illustrator), drawn after the turn is stored: the floor at
// the end of the turn (PNG), the floor as each register left it (PNG) and the turn step
// by step (animated GIF), each under the Content-ID "what." + Mailing.PictureIDs (what:
// board, reg1..reg5, turn). They are drawn once for every reader of the turn; a
// player's own copies ring the player's robot (picture.Still.For, Animation.For: the
// shared pictures with the ring drawn over, not drawn again, and only the ring's rows
// encoded again). The shared pictures are encoded once, for a public report or as
// what the own copies are made of. A picture that cannot be drawn or encoded is left
// out (an own copy: the shared one takes its place).

// turnPictures are one turn's pictures, drawn once for all its reports.
type turnPictures struct {
	refs   narrate.Pictures
	shared []game.Picture // in the order the mail carries them; Data nil until encoded
	encode []func() []byte
	once   []sync.Once
	// own draws picture i ringing robot; nil: the picture has no own copy
	own []func(robot string) []byte
}

// sharedData is shared picture i, encoded when first needed.
func (t *turnPictures) sharedData(i int) []byte {
	t.once[i].Do(func() {
		if t.shared[i].Data == nil && t.encode[i] != nil {
			t.shared[i].Data = t.encode[i]()
		}
	})
	return t.shared[i].Data
}

// forReader is the pictures of one reader (robot "" : the shared ones), those that
// could be drawn.
func (t *turnPictures) forReader(robot string) []game.Picture {
	var out []game.Picture
	for i, s := range t.shared {
		var data []byte
		if robot != "" && t.own[i] != nil {
			data = t.own[i](robot)
		}
		if data == nil {
			data = t.sharedData(i)
		}
		if data != nil {
			s.Data = data
			out = append(out, s)
		}
	}
	return out
}

// drawTurn draws the turn's pictures: the floor after it and, with the robots as the
// turn began (before nil: none), the register stills and the animation.
func (p *position) drawTurn(before *adjudicator.State, events []adjudicator.Event, tag string, turn int, ids string) *turnPictures {
	setup, next := p.setup, p.State
	opt := picture.Options{Cell: 28, Deck: setup.Deck, Turn: turn}
	still := opt
	still.Caption = fmt.Sprintf("%s (%s) after turn %d", tag, p.cfg.CourseName, turn)
	still.Devices = next.Devices
	var regs []picture.RegisterFrame
	var anim *picture.Animation
	var animErr error
	// The turn's animation and stills are drawn beside the board (two cores at work):
	// the GIF is the largest part of the work.
	var wg sync.WaitGroup
	var panicked any
	if before != nil {
		opt.Devices = before.Devices
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panicked = recover() }() // raised again below, in the caller
			var frames []picture.Frame
			frames, regs = picture.TurnStory(setup.Course, before.Robots, events, opt)
			anim, animErr = picture.EncodeAnimation(frames, opt) // readers' copies reuse its frames
		}()
	}
	board := picture.CourseFrame(setup.Course, next.Robots, still)
	t := &turnPictures{refs: narrate.Pictures{BoardCID: "board." + ids, Width: board.Image.Rect.Dx(), Height: board.Image.Rect.Dy()}}
	add := func(cid, name, ctype string, data []byte, encode func() []byte, own func(string) []byte) {
		t.shared = append(t.shared, game.Picture{Name: name, ContentType: ctype, ContentID: cid, Data: data})
		t.encode, t.own = append(t.encode, encode), append(t.own, own)
	}
	// the PNGs as picture.Stills: compressed for speed, once, a reader's copy only in
	// the rows of the ring again
	boardPNG := picture.NewStill(board)
	add(t.refs.BoardCID, fmt.Sprintf("%s-turn-%d.png", tag, turn), "image/png", nil, boardPNG.Bytes, boardPNG.For)
	// the board compressed now, beside the turn's frames, rather than after them: every
	// reader's copy of it is made from its bands
	boardPNG.Bytes()
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if before != nil {
		for _, r := range regs {
			cid := fmt.Sprintf("reg%d.%s", r.Register, ids)
			caption := fmt.Sprintf("After register %d", r.Register) // and the cards played, in order
			if _, cards, ok := strings.Cut(r.Caption, " — "); ok {
				caption += ": " + cards
			}
			t.refs.Stills = append(t.refs.Stills, narrate.Still{CID: cid, Caption: caption})
			regPNG := picture.NewStill(r.Frame)
			add(cid, fmt.Sprintf("%s-turn-%d-register-%d.png", tag, turn, r.Register), "image/png", nil, regPNG.Bytes, regPNG.For)
		}
		if animErr == nil {
			t.refs.TurnCID = "turn." + ids
			add(t.refs.TurnCID, fmt.Sprintf("%s-turn-%d.gif", tag, turn), "image/gif", anim.Bytes(), nil,
				func(you string) []byte {
					b, err := anim.For(you) // the frames that come out the same are the shared ones
					if err != nil {
						return nil
					}
					return b
				})
		}
	} else {
		for i := range t.own {
			t.own[i] = nil // no turn drawn: no own copies (as the judge's own path)
		}
	}
	t.once = make([]sync.Once, len(t.shared))
	return t
}

// Illustrate is each mailing's report with the turn's pictures (game.Illustrator).
func (p *position) Illustrate(before game.Position, events []byte, ms []game.Mailing) []game.Report {
	out := make([]game.Report, len(ms))
	if len(ms) == 0 {
		return out
	}
	oc := p.sharedFor(events).oc
	var from *adjudicator.State
	if b, ok := before.(*position); ok && b != nil {
		from = p.engineStart(b.State, oc)
	}
	t := p.drawTurn(from, oc.Events, ms[0].Game, ms[0].Turn, ms[0].PictureIDs)
	// the readers: "" for the shared pictures, else a robot to ring
	readerOf := func(m game.Mailing) string {
		if m.Part == game.PartPublic || m.Seat < 0 || m.Seat >= len(p.State.Robots) {
			return ""
		}
		return p.State.Robots[m.Seat].Name
	}
	var readers []string
	seen := map[string]bool{}
	for _, m := range ms {
		if r := readerOf(m); !seen[r] {
			seen[r] = true
			readers = append(readers, r)
		}
	}
	if seen[""] { // the shared pictures are needed: encoded side by side
		parallel.Do(len(t.shared), func(i int) { t.sharedData(i) })
	}
	pics := make([][]game.Picture, len(readers))
	parallel.Do(len(readers), func(i int) { pics[i] = t.forReader(readers[i]) })
	byReader := map[string][]game.Picture{}
	for i, r := range readers {
		byReader[r] = pics[i]
	}
	parallel.Do(len(ms), func(i int) {
		m := ms[i]
		rep := p.reportData(events, m)
		mine := byReader[readerOf(m)]
		refs := t.refs
		refs.Stills = nil
		has := map[string]bool{}
		for _, pic := range mine {
			has[pic.ContentID] = true
		}
		// the HTML names the pictures there are (one that failed is left out)
		if !has[refs.BoardCID] {
			refs.BoardCID = ""
		}
		if !has[refs.TurnCID] {
			refs.TurnCID = ""
		}
		for _, s := range t.refs.Stills {
			if has[s.CID] {
				refs.Stills = append(refs.Stills, s)
			}
		}
		if refs.BoardCID != "" {
			rep.Pictures = &refs
		}
		r := p.reportMail(rep, m)
		r.Pictures = mine
		out[i] = r
	})
	return out
}

// leftNote is what every player is told of a robot whose player withdrew.
func leftNote(robot string) string {
	return fmt.Sprintf("%s has left the race (its player withdrew).", robot)
}

// engineStart is the state the engine played the turn from: the position before it
// with what Play changed before the engine (a withdrawn player's robot left the race;
// under the postal rules a robot without orders powered down by the missed-orders
// policy), read back from the turn's outcome, so that the turn's pictures start where
// the engine did.
func (p *position) engineStart(before *adjudicator.State, oc outcome) *adjudicator.State {
	st := before.Clone()
	for i := range st.Robots {
		r := &st.Robots[i]
		if !r.Out && slices.Contains(oc.Notes, leftNote(r.Name)) {
			r.Out, r.Virtual = true, false
		}
	}
	if !p.cfg.Rules.Own() {
		for _, pl := range oc.Played {
			if i := st.Robot(pl.Robot); i >= 0 && pl.Missed == MissedPowerDown && !st.Robots[i].Out {
				st.Robots[i].Power = adjudicator.PowerDown
			}
		}
	}
	return st
}
