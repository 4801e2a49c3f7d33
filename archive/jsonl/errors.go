package jsonl

import "fmt"

// Error is a problem reading an archive: where (File may be set by the caller; Line
// counts from 1, Col from 1 and is 0 for the whole line) and what.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	var where string
	switch {
	case e.File != "" && e.Col > 0:
		where = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	case e.File != "":
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	case e.Col > 0:
		where = fmt.Sprintf("line %d:%d", e.Line, e.Col)
	default:
		where = fmt.Sprintf("line %d", e.Line)
	}
	return where + ": " + e.Msg
}

// ReplayError is a replay that went wrong at Turn: the state after it hashes to Got
// where the archive says Want, or (Err set) the turn could not be played at all.
type ReplayError struct {
	Turn      int
	Want, Got string
	Err       error
}

func (e *ReplayError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("turn %d: %v", e.Turn, e.Err)
	}
	return fmt.Sprintf("turn %d: the replayed state differs from the archive (hash %.12s…, the archive says %.12s…)", e.Turn, e.Got, e.Want)
}

func (e *ReplayError) Unwrap() error { return e.Err }
