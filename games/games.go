// Package games is the list of games the judge hosts behind the game seam (package
// game), as godip lists its variants: adding a game is a package implementing
// game.Kind and a line here. Nothing registers itself.
package games

import (
	crashbycrash "github.com/rallyjudge/rallyjudge/crashbycrash/hosted"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally"
)

// RoboRally is the name CREATE game= takes for RoboRally (roborally.Kind), the
// default game. A RoboRally game is created from its settings as the judge always read
// them and played behind the seam (judge/legacy.go adopts it, and every game stored
// before the seam, through roborally.Kind.Adopt).
const RoboRally = "roborally"

// Hosted are the games behind the seam, in the order HELP lists them; the first is
// the default for CREATE without game=.
func Hosted() game.Catalog {
	return game.Catalog{roborally.Kind{}, crashbycrash.Kind{}}
}
