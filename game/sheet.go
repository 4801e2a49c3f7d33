package game

// A mail's order sheet, as the judge's intake reads it before it knows the game.
//
// Every game's orders by mail carry the same envelope (docs/orders.md): lines naming the
// game, the robot or player, the turn and the secret, and the markers #orders ... #end
// around the orders when other text stands beside them. That envelope is the header of
// RoboRally's order sheet, the first sheet the judge read; the judge reads every mail's
// sheet with the reader of the first game in its catalogue that has one (a MailReader)
// and hands the game only the lines of the move (MoveLines), so that a game's own
// grammar never has to know the envelope.

// MailSheet is a mail's order sheet as read.
type MailSheet struct {
	Game, Seat, Secret string
	Turn               int
	// HasOrders says the sheet holds orders beside its envelope (RoboRally: a program).
	HasOrders bool
	// Read is the sheet as the reader read it (JSON), for `rallyjudge check --mail`;
	// nil: nothing to show. It is made when asked for: intake never asks, and making it
	// for every mail cost a sixth of reading a sheet (issue 24 item 7).
	Read func() []byte
}

// SheetProblem is one problem a reader found in a sheet: where, and what, as the reply
// to the player says it.
type SheetProblem struct {
	Line, Col int
	Text      string
}

// SheetError is the error of a sheet with problems: each of them, and advice for the
// player beyond them ("" none).
type SheetError interface {
	error
	SheetProblems() []SheetProblem
	Hint() string
}

// MailReader is a Kind whose reader reads the order sheet of every mail for the judge.
type MailReader interface {
	// ReadSheet reads text (as YAML when yaml is set: an attached .yaml file); the
	// error, when the sheet has problems, is a SheetError. The sheet is read as far as
	// it reads either way.
	ReadSheet(text string, yaml bool) (MailSheet, error)
	// SheetBlock is the lines of text (from 0, last not included) the sheet's markers
	// give to read: every line without markers.
	SheetBlock(text string) (first, last int)
	// MoveLines is text with the envelope's lines, a greeting above them and the lines
	// outside the markers blanked, every other line where it stands.
	MoveLines(text string) string
	// ReadsAsSheet says whether a line by itself reads as a line of a sheet.
	ReadsAsSheet(line string) bool
	// MaxSheetSize is the most bytes a sheet may have.
	MaxSheetSize() int
}

// MailReaderOf is the catalogue's reader of mails' sheets: its first MailReader (nil
// when none has one).
func MailReaderOf(c Catalog) MailReader {
	for _, k := range c {
		if r, ok := k.(MailReader); ok {
			return r
		}
	}
	return nil
}

// MoveReader is a MailReader that reads a move's lines before the judge knows the
// position they are checked against: the judge reads the mails of a batch on a
// goroutine of its own while it judges the mails before them, one at a time, so what
// is read there is not paid where the mails wait. A Position of the reader's game that
// is a ReadChecker then checks the move without reading its lines again.
type MoveReader interface {
	MailReader
	// ReadMove reads lines (MoveLines of a mail's sheet), sent as the attached file
	// file ("": the mail's text).
	ReadMove(lines, file string) ReadMove
}

// ReadMove is a move's lines as a MoveReader read them ahead.
type ReadMove struct {
	Lines, File string
	// Read is the reader's own: only a Position of its game reads it, at most once.
	Read any
}

// ReadChecker is a Position that checks a move its game's MoveReader read ahead.
// CheckRead(seat, m) is what checking m.Lines gives (CheckFile of m.File when the
// Position is a FileChecker and m.File is set, else Check), whoever read m and however
// often it is checked: a Read it does not know, or has checked already, it reads
// again.
type ReadChecker interface {
	CheckRead(seat int, m ReadMove) Checked
}
