package templates

import htmltemplate "html/template"

// GameMail is a mail about a game behind the game seam (game.html.tmpl): the judge
// wraps what the game reports (Text, a picture) with its own lines (Intro, Foot).
type GameMail struct {
	Title string
	Intro []string // paragraphs above the report
	Text  string   // the game's report, plain text
	// HTML is the game's report in HTML, a fragment shown in Text's place ("": none).
	HTML       htmltemplate.HTML
	PictureCID string // the Content-ID of the board's picture; "" for none
	PictureAlt string
	// Pictures are the game's other pictures, shown below the board's.
	Pictures []GamePicture
	Foot     string // whose move, the deadline, how to reply
}

// GamePicture is one inline picture of a GameMail.
type GamePicture struct {
	CID string // its Content-ID
	Alt string
}
