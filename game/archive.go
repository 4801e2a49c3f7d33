package game

import "io"

// Archiver is a Kind with an archive format of its own (RoboRally: the .rja files of
// docs/archive.md, version 1, which players kept before the seam): package archive
// writes its games in that format rather than in the format of the games behind the
// seam, and reads a file in it when the file's first line opens with its magic. A Kind that is not an Archiver has its games archived
// in package archive's format (archive.Hosted).
type Archiver interface {
	// ArchiveMagic is the first word of an archive's first line in the Kind's format
	// (the line is "MAGIC VERSION"): how a file in it is told apart. Distinct from
	// every other format's.
	ArchiveMagic() string
	// ArchiveOf is the archive of the game the store keeps (Archive.Write writes it:
	// the same record gives the same bytes). It holds nothing about the players but
	// their names.
	ArchiveOf(rec Record) (Archive, error)
	// ReadArchive reads an archive in the Kind's format, checking its structure (not
	// its hashes: Archive.Replay does). Input is hostile: every line is bounded and an
	// error names the line and column (a *jsonl.Error of package archive/jsonl).
	ReadArchive(r io.Reader) (Archive, error)
}

// Archive is one game read from an archive file, in its game's format or package
// archive's: what `rallyjudge replay` and `render` do with it. A turn that does not
// replay exactly is a *jsonl.ReplayError naming it.
type Archive interface {
	// Write writes the archive in its format: the same archive gives the same bytes.
	Write(w io.Writer) error
	// Kind is the name of the game it records (Kind.Name).
	Kind() string
	// Tag is the game's tag as the archive names it; Last its last turn (turn 0 is the
	// set-up).
	Tag() string
	Last() int
	// About is the game in a few words for replay's summary ("sprint-3 on sprint, 3
	// robots"), or "".
	About() string
	// Replay re-runs the game from the set-up through turn upto (negative: every turn),
	// checking each turn's hash; progress, if set, is told each turn replayed.
	Replay(upto int, progress func(turn int)) error
	// Show replays every turn and writes turn n for a terminal: the position after it,
	// what happened in it.
	Show(w io.Writer, n int, progress func(turn int)) error
	// WriteHTML replays every turn and writes one self-contained page that steps
	// through the game, as an observer sees it.
	WriteHTML(w io.Writer, progress func(turn int)) error
	// Picture replays through turn n and draws the game after it (a PNG, cell pixels a
	// square or cell; 0: the default), or the turn played step by step (gif: an
	// animated GIF).
	Picture(n int, gif bool, cell int) ([]byte, error)
}

// Record is a game as the judge stored it, read from the store by package archive for
// an Archiver: the rows in the encodings they were stored in, for the Kind to read.
type Record struct {
	// Kind is the game's name, "" for a game stored before the seam (Legacy): its
	// Course, Config and Turns are then in the older encodings.
	Kind      string
	Tag, Name string
	Course    string // games.course (a game stored before the seam)
	Config    []byte // games.rules_json: the Kind's settings, as LoadConfig reads them
	Seed      int64
	Seats     []string // the players' names, in seat order
	// Turns are the live turns, turn 0 (the set-up) first, numbered without gaps.
	Turns []RecordTurn
	// Press is the press the players sent through the judge, in the order it was sent.
	Press []RecordPress
}

// RecordTurn is a stored turn: its columns, and behind the seam the moves each seat
// played (turns.orders read; turn 1 on).
type RecordTurn struct {
	LegacyTurn
	Played []PlayedMove
}

// RecordPress is one press message as stored: the judge's turn number (press sent
// while turn n's orders were gathered is numbered n), the sender's name (kept even
// when the message was not signed: the archive must not give it), the names written to
// (nil: everyone), whether it was signed, the text.
type RecordPress struct {
	ID     int64
	Turn   int
	From   string
	To     []string
	Signed bool
	Body   string
}

// Importer is an Archiver whose archives a judge can make a new game of: to continue
// it where the archive ends, or to fork it from an earlier turn ("what if"), as
// `rallyjudge import` does.
type Importer interface {
	// Import replays a (an archive its ReadArchive read) through turn as.From, every
	// hash checked (an archive that does not replay exactly is refused, naming the
	// turn), and gives the game as it stands there in the Kind's own encodings: what
	// the judge stores, as it stores a game created and played behind the seam. An
	// archive the judge could not go on playing (a course or a card it does not have)
	// is refused, saying why.
	Import(a Archive, as ImportAs) (Imported, error)
}

// ImportAs is how the judge makes the new game.
type ImportAs struct {
	Tag  string // the new game's tag
	From int    // the last turn kept, 0 to Archive.Last()
	// Missed is the missed-moves policy the game master chose for the new game, ""
	// the game's default (a game without policies ignores it).
	Missed string
}

// Imported is a game made from an archive, in the Kind's own encodings.
type Imported struct {
	Config []byte // the settings, as LoadConfig reads them
	Seed   int64
	Seats  []string // the players' names, in seat order
	// Turns are turns 0 to From: the positions (Before nil for turn 0), the events as
	// Play returns them and each seat's move played.
	Turns []AdoptedTurn
	// Versions are moves in force at turn From that the judge keeps as valid order
	// versions (RoboRally: each robot's standing orders), as a Move's JSON.
	Versions []ImportedVersion
	// Press is the archive's press the new game keeps, numbered as the judge numbers
	// it (sent while turn n's moves were gathered: n); an unsigned message's sender is
	// the archive's word for it ("anonymous").
	Press []RecordPress
	// Over says the game had ended at turn From.
	Over bool
}

// ImportedVersion is one order version to keep: its turn, its seat and its reading
// (a Move's JSON, as the judge stores a valid version's).
type ImportedVersion struct {
	Turn, Seat int
	Parsed     []byte
}
