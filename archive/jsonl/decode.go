package jsonl

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
)

// DecodeError is a line that is not the JSON object wanted: the column (from 1; 0 for
// the whole line) and what.
type DecodeError struct {
	Col int
	Msg string
}

// Decode reads one JSON line strictly: unknown fields are errors (a newer writer would
// have changed the version), and so is anything after the value.
func Decode(b []byte, v any) *DecodeError {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return &DecodeError{int(se.Offset), "bad JSON: " + se.Error()}
		case errors.As(err, &te):
			return &DecodeError{int(te.Offset), fmt.Sprintf("%s: want %s, found JSON %s", te.Field, te.Type, te.Value)}
		case err == io.EOF:
			return &DecodeError{0, "empty line (want a JSON object)"}
		}
		return &DecodeError{0, Clip(err.Error())}
	}
	if dec.More() {
		return &DecodeError{int(dec.InputOffset()) + 1, "more after the JSON object"}
	}
	return nil
}

// Clip cuts s to 80 bytes for an error message.
func Clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// maxNameBytes is the longest name (robot, seat, board, card, tag) an archive carries.
const maxNameBytes = 64

// CheckName refuses empty, long or odd names (robots, seats, boards, options, tags):
// control characters, bidirectional overrides and the rest game.NameProblem names.
func CheckName(s string) string {
	if s == "" {
		return "empty"
	}
	if len(s) > maxNameBytes {
		return fmt.Sprintf("longer than %d bytes", maxNameBytes)
	}
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	if p := game.NameProblem(s); p != "" {
		return p + ", which is not allowed in names" // issue 14 item 9: shown to players and terminals
	}
	return ""
}

// IsHash says whether s is a SHA-256 in lower-case hex.
func IsHash(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// Hash is the SHA-256 of b in lower-case hex, as archives write it.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Anonymous is the sender of an unsigned press message as an archive gives it: the
// public never learns who wrote it, and neither does the archive.
const Anonymous = "anonymous"
