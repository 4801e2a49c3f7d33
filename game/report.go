package game

import "io/fs"

// Report is what the judge mails a seat after a move.
//
// A plain game writes Subject, Text and at most a picture of the board, and the judge
// wraps them with its own lines: a title, what it has to say (a missed move), and whose
// move is due, by when and how to reply. A game that writes its mails whole (Mailer)
// also gives an HTML body and its pictures, and the judge adds nothing.
type Report struct {
	// Subject is the subject's detail ("move 12: Zoe to move"); from a Mailer, all of
	// the subject after the game's tag ("Turn 3 report for Twonky").
	Subject string
	// Text is the report, plain text, wrapped for a phone (at most 72 columns).
	Text string
	// HTML is the report in HTML ("": the judge shows Text): a Mailer's whole document;
	// otherwise a fragment (no <html> or <body>) the judge puts in its own page in
	// Text's place. It shows its pictures by their Content-IDs (cid:ID, RFC 2392).
	HTML string
	// Picture is the board as a PNG (nil: none), named PictureName.
	Picture     []byte
	PictureName string
	// Pictures are the report's other pictures, each an inline part of the mail, in the
	// order the HTML shows them.
	Pictures []Picture
	// Whole says that Text and HTML are the whole mail (a Mailer's): the judge adds no
	// title, intro or foot.
	Whole bool
}

// Picture is one picture of a report, an inline part of its mail.
type Picture struct {
	// Name is the file's name ("spring-turn-3.png").
	Name string
	// ContentType is the picture's MIME type ("image/png", "image/gif").
	ContentType string
	// ContentID is the part's Content-ID, without angle brackets, as the report's HTML
	// names it (cid:ContentID).
	ContentID string
	Data      []byte
}

// The mails a Mailer writes (Mailing.Kind).
const (
	MailWelcome  = "welcome"  // the first mail of the game: the secret, the start
	MailTakeOver = "takeover" // a player taking over a seat of a running game (REPLACE)
	MailReport   = "report"   // the report of a move
)

// The parts of a report in a game with a mailing list (Mailing.Part).
const (
	PartWhole   = ""        // one reader's whole report
	PartPublic  = "public"  // what everyone may see: for the list and observers
	PartPrivate = "private" // one player's own part, beside the list's report
)

// Mailing is what the judge knows of one mail that a Mailer writes: the game as the
// judge names it, the reader, the deadline in the reader's time zone. It is stored with
// a report awaiting its pictures (Illustrator), so all but Templates are plain data.
type Mailing struct {
	Kind string `json:"kind"` // MailWelcome, MailTakeOver, MailReport
	// Seat is the reader's seat, -1 for the public report (a list, an observer).
	Seat int    `json:"seat"`
	Part string `json:"part,omitempty"` // PartWhole, PartPublic, PartPrivate
	// Game is the game's tag; Turn the judge's turn the mail reports (0: the start);
	// Again, that the turn was played again after a rollback.
	Game  string `json:"game"`
	Turn  int    `json:"turn"`
	Again bool   `json:"again,omitempty"`
	// List is the game's mailing list, where the public report went ("" for none).
	List string `json:"list,omitempty"`
	// Deadline is the next deadline in words, in the reader's time zone ("" when the
	// game is over).
	Deadline string `json:"deadline,omitempty"`
	// Judge is the judge's address, where orders and commands go.
	Judge string `json:"judge,omitempty"`
	// Secret is the reader's secret in a welcome (a placeholder the judge fills in when
	// it sends the mail).
	Secret string `json:"-"`
	// PictureIDs ends every Content-ID of the mail's pictures, so that they are unique
	// ("spring.3@judge.example": the board is "board.spring.3@judge.example").
	PictureIDs string `json:"picture_ids,omitempty"`
	// Templates are the judge's templates (with the game master's overrides), nil for
	// the built-in ones.
	Templates Renderer `json:"-"`
}

// Renderer renders the judge's templates by name, with the game master's overrides:
// the judge's own and, for a game that is a Templater, the game's.
type Renderer interface {
	Text(name string, data any) (string, error)
	HTML(name string, data any) (string, error)
}

// Templater is a Kind whose mails are written from templates of its own (RoboRally:
// the turn report, the welcome, the acknowledgement), which the judge's Renderer
// renders (Mailing.Templates, AckTurn.Render) so that a game master's overrides
// (templates_dir) apply to them as to the judge's. files holds the *.tmpl files at its
// root, named unlike the judge's and other games'; samples are data for each, on which
// an override of it is tried when the judge starts.
type Templater interface {
	Templates() (files fs.FS, samples map[string]any)
}

// Mailer is a Position that writes its mails whole (RoboRally: the reports and the
// welcome players had before the seam). The judge mails Report.Text and Report.HTML as
// they are, under "[RR tag] " and the Subject. A Position that is not a Mailer is
// mailed its Report wrapped by the judge.
type Mailer interface {
	Mail(events []byte, m Mailing) Report
}

// Illustrator is a Mailer whose reports' pictures are drawn after the move is stored:
// drawing them takes far longer than the move. The move's reports are stored with the
// move, without pictures, and the judge asks Illustrate for them once the move is
// committed (after a crash too), for every reader of the move at once, so that the
// game draws what readers share once. Illustrate is called on the position after the
// move, with the one before it (nil: none can be read) and the move's events, and
// returns one Report a mailing, the same as Mail's but for its HTML and Pictures. A
// picture that cannot be drawn is left out, never an error: a report never waits for
// its pictures for good.
type Illustrator interface {
	Mailer
	Illustrate(before Position, events []byte, ms []Mailing) []Report
}

// MissedTeller is a Position that tells a seat's player what was played for the seat
// when no move came in time, in words that follow "so " ("your robot was powered down
// for the turn (no program, no repair)."). The judge mails it with the count of missed
// turns and the game's missed-turns limit, as for RoboRally before the seam. A Position
// that is not a MissedTeller has the judge say which move the autopilot played.
type MissedTeller interface {
	MissedNote(seat int, events []byte) string
}

// Summarizer is a Position, the game's last, that writes the body of the game-over mail
// itself: the result, the standings, the game turn by turn. A Position that is not a
// Summarizer has the judge write it from the Standings and the moves.
type Summarizer interface {
	Summary(s Summary) string
}

// Summary is what the judge tells a Summarizer of a game that is over.
type Summary struct {
	Game string // the game's tag
	Name string // the game's name ("" for none)
	// Turns are the turns played, in order, without the start.
	Turns []SummaryTurn
	// Withdrawn are the seats whose players withdrew.
	Withdrawn []int
}

// SummaryTurn is one turn played: its number and the events Play returned.
type SummaryTurn struct {
	Number int
	Events []byte
}

// MissedRuler is a Config that says what happens to a seat whose move does not come in
// time, for the reminder and STATUS, in words that follow "If no valid orders arrive by
// then, " ("your robot is powered down for the turn (and not repaired)"). Without it
// the judge says the game's autopilot plays a move.
type MissedRuler interface {
	MissedRule() string
}
