package narrate

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/rallyjudge/rallyjudge/templates"
)

//go:embed files/*.tmpl
var embedded embed.FS

// Source is RoboRally's templates (files/*.tmpl: the turn report, the welcome and the
// acknowledgement) as the judge's template set takes them, with data to try a game
// master's override of each on.
func Source() templates.Source {
	files, err := fs.Sub(embedded, "files")
	if err != nil {
		panic(err) // the directory is embedded: it is there
	}
	return templates.Source{Name: "roborally", FS: files, Samples: samples()}
}

// BuiltIn is the judge's templates with RoboRally's, without overrides: for a mail
// rendered without the judge's set (a game's own test, `rallyjudge check`).
var BuiltIn = sync.OnceValues(func() (*templates.Set, error) { return templates.Load("", Source()) })

// samples are data for each of RoboRally's templates.
func samples() map[string]any {
	card := []Card{{Register: 1, P: 490, Title: "Move 1"}}
	sections := []Section{{Register: 1, Title: "Register 1", Lines: []string{"P490 Zoom plays Move 1"}}}
	robots := []RobotStatus{{Name: "Zoom", Square: "1,2", Facing: "north", Power: "on"}}
	report := Report{Game: "g", Course: "c", Turn: 1, NextTurn: 2, Part: PartFull, Player: "Zoom", Board: "b", Legend: "l",
		Sections: sections, Robots: robots, Deadline: "d", Standings: []Standing{{}}, Hand: card, Locked: card,
		Standing: []string{"if damage > 4 then power down"}, Sheet: "#orders\n#end\n", Pictures: &Pictures{BoardCID: "b", TurnCID: "t", Stills: []Still{{CID: "s1", Caption: "After register 1"}}}, Replay: "r"}
	welcome := Welcome{Game: "g", Course: "c", Robot: "Zoom", Secret: "(secret)", Board: "b", Legend: "l", Hand: card, Locked: card, Deadline: "d", Sheet: "s", Judge: "j", Turn: 1}
	return map[string]any{
		"report.txt.tmpl":   report,
		"report.html.tmpl":  report,
		"ack.txt.tmpl":      Ack{Game: "g", Robot: "Zoom", Turn: 1, Program: card, Standing: []string{"x"}, Warnings: []string{"w"}, Forecast: "f", Deadline: "d", Waiting: "w"},
		"welcome.txt.tmpl":  welcome,
		"welcome.html.tmpl": welcome,
	}
}
