package judge

import (
	"bytes"
	"image/png"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/picture"
)

// yourPictures returns what draws a player's own copy of the turn's pictures: the board
// after the turn with the reader's robot ringed (issue 22), under the same Content-ID;
// the animation and the register pictures stay the ones drawn for everyone. The copy is
// compressed at the encoder's default level: the shared pictures' best compression takes
// some 20 times as long (210 ms against 10 ms a picture, 7.1 KB against 8.2 KB, sprint,
// measured on the loaded 2-core machine), too long to pay once a player. A picture
// that cannot be drawn leaves the shared one.
func yourPictures(shared *reportPictures, setup *adjudicator.Setup, next *adjudicator.State, still picture.Options) func(string) *reportPictures {
	return func(robot string) *reportPictures {
		still.You = robot
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&b, picture.Course(setup.Course, next.Robots, still)); err != nil {
			return shared
		}
		p := &reportPictures{refs: shared.refs, inline: make([]mail.Inline, len(shared.inline))}
		copy(p.inline, shared.inline)
		for i := range p.inline {
			if p.inline[i].ContentID == shared.refs.BoardCID {
				p.inline[i].Data = b.Bytes()
			}
		}
		return p
	}
}
