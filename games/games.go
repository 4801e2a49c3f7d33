// Package games is the list of games the judge hosts behind the game seam (package
// game), as godip lists its variants: adding a game is a package implementing
// game.Kind and a line here. Nothing registers itself.
package games

import (
	crashbycrash "github.com/rallyjudge/rallyjudge/crashbycrash/hosted"
	"github.com/rallyjudge/rallyjudge/game"
)

// RoboRally is the name CREATE game= takes for RoboRally, which the judge plays on
// its own path (judge/resolve.go) until it too sits behind the seam.
const RoboRally = "roborally"

// Hosted are the games behind the seam, in the order HELP lists them.
func Hosted() game.Catalog {
	return game.Catalog{crashbycrash.Kind{}}
}
