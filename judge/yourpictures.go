package judge

import (
	"bytes"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/picture"
	"github.com/rallyjudge/rallyjudge/store"
)

// yourPictures returns what draws a player's own copy of the turn's pictures shared:
// the board after the turn and each register's picture with the reader's robot ringed
// (issue 22), under the same Content-IDs; the animation stays the one drawn for all.
// A picture that cannot be drawn leaves the shared one.
func (j *Judge) yourPictures(shared *reportPictures, g store.Game, setup *adjudicator.Setup, next *adjudicator.State,
	before adjudicator.State, events []adjudicator.Event, turn int, still, opt picture.Options) func(string) *reportPictures {
	return func(robot string) *reportPictures {
		still.You, opt.You = robot, robot
		var png bytes.Buffer
		if err := picture.PNG(&png, picture.Course(setup.Course, next.Robots, still)); err != nil {
			return shared
		}
		refs := *shared.refs
		p := &reportPictures{refs: &refs}
		for _, in := range shared.inline {
			switch in.ContentID {
			case refs.BoardCID:
				in.Data = png.Bytes()
				p.inline = append(p.inline, in)
			case refs.TurnCID:
				p.inline = append(p.inline, in)
			}
		}
		_, regs := picture.TurnStory(setup.Course, before.Robots, events, opt)
		p.stills(j, g, turn, regs)
		return p
	}
}
