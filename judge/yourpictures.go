package judge

import (
	"bytes"
	"fmt"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/picture"
	"github.com/rallyjudge/rallyjudge/store"
)

// yourPictures returns what draws a player's own copy of the turn's pictures (issue 22):
// the board after the turn, each register's picture and the animation, with the
// reader's robot ringed, under the same Content-IDs as the shared ones. The board, the
// register pictures and the GIF's frames are the shared ones with the ring drawn over
// (picture.Frame.For), not drawn again; the GIF's frames that come out the same are
// the shared ones, not encoded again (picture.Animation); the PNGs are the shared
// ones' bands with those of the ring's rows compressed again (picture.Still). A
// picture that cannot be drawn or encoded leaves the shared one in its place.
func (j *Judge) yourPictures(shared *reportPictures, g store.Game, turn int, board picture.Frame,
	regs []picture.RegisterFrame, anim *picture.Animation, stills map[string]*picture.Still) func(string) *reportPictures {
	return func(robot string) *reportPictures {
		encode := func(cid string, f picture.Frame) []byte {
			if !j.picturesInTx {
				return stills[cid].For(robot) // only the bands of the ring's rows encoded again
			}
			img := f.For(robot).Image
			var b bytes.Buffer
			if err := j.encodeOwnPNG(&b, img); err != nil {
				return nil
			}
			return b.Bytes()
		}
		mine := map[string]func() []byte{
			shared.refs.BoardCID: func() []byte { return encode(shared.refs.BoardCID, board) },
		}
		for _, r := range regs {
			cid := j.pictureID(fmt.Sprintf("reg%d", r.Register), g.Tag, turn)
			mine[cid] = func() []byte { return encode(cid, r.Frame) }
		}
		if shared.refs.TurnCID != "" {
			mine[shared.refs.TurnCID] = func() []byte {
				b, err := anim.For(robot) // the frames that come out the same are the shared ones
				if err != nil {
					return nil
				}
				return b
			}
		}
		p := &reportPictures{refs: shared.refs, inline: make([]mail.Inline, len(shared.inline)), lazy: map[int]*lazyPicture{}}
		copy(p.inline, shared.inline)
		for i := range p.inline {
			if draw, ok := mine[p.inline[i].ContentID]; ok {
				if b := draw(); b != nil {
					p.inline[i].Data = b
					continue
				}
			}
			if l := shared.lazy[i]; l != nil && p.inline[i].Data == nil {
				p.lazy[i] = l // the shared picture, encoded if not yet
			}
		}
		return p.complete()
	}
}
