package archive

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/game/gametest"
)

// ownFormat is a Kind with an archive format of its own (game.Archiver), as RoboRally
// is: its archive is its magic line and the game's tag.
type ownFormat struct{ gametest.Nim }

func (ownFormat) Name() string         { return "own" }
func (ownFormat) ArchiveMagic() string { return "own-archive" }
func (ownFormat) ArchiveOf(rec game.Record) (game.Archive, error) {
	return &ownFile{tag: rec.Tag, last: len(rec.Turns) - 1}, nil
}
func (ownFormat) ReadArchive(r io.Reader) (game.Archive, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	_, tag, ok := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
	if !ok {
		return nil, &Error{Line: 2, Msg: "no tag"}
	}
	return &ownFile{tag: tag}, nil
}

type ownFile struct {
	tag  string
	last int
}

func (f *ownFile) Write(w io.Writer) error {
	_, err := io.WriteString(w, "own-archive 1\n"+f.tag+"\n")
	return err
}
func (f *ownFile) Kind() string                               { return "own" }
func (f *ownFile) Tag() string                                { return f.tag }
func (f *ownFile) Last() int                                  { return f.last }
func (f *ownFile) About() string                              { return "" }
func (f *ownFile) Replay(int, func(int)) error                { return nil }
func (f *ownFile) Show(io.Writer, int, func(int)) error       { return nil }
func (f *ownFile) WriteHTML(io.Writer, func(int)) error       { return nil }
func (f *ownFile) Picture(int, bool, int) ([]byte, error)     { return nil, errors.New("none") }
func (ownFormat) Adopt(game.LegacyGame) (game.Adopted, error) { return game.Adopted{}, nil }

// TestFormatsAreChosenByGameAndFirstLine: Of writes a game in its Kind's own format
// when the Kind is a game.Archiver (a game stored before the seam: the Legacy Kind's)
// and in the hosted format otherwise; Read reads each by its first line, and refuses a
// file that is no archive of a game here, naming the line and what it wanted.
func TestFormatsAreChosenByGameAndFirstLine(t *testing.T) {
	games := game.Catalog{ownFormat{}, gametest.Nim{}}
	h := nimGame(t)
	var hosted bytes.Buffer
	if err := WriteHosted(&hosted, h); err != nil {
		t.Fatal(err)
	}
	rec := game.Record{Kind: "nim", Tag: h.Game, Config: h.Config, Seed: h.Seed, Seats: h.Seats}
	for i, t := range h.Turns {
		rt := game.RecordTurn{LegacyTurn: game.LegacyTurn{Number: i, After: []byte("{}")}}
		for _, m := range t.Moves {
			rt.Played = append(rt.Played, game.PlayedMove{Seat: m.Seat, Move: m.Move, Missed: m.Missed})
		}
		rec.Turns = append(rec.Turns, rt)
	}
	for _, c := range []struct {
		name string
		rec  game.Record
		want string // the first line written
	}{
		{"a game behind the seam", rec, HostedMagic + " 1"},
		{"a game with its own format", game.Record{Kind: "own", Tag: "mine", Turns: rec.Turns}, "own-archive 1"},
		{"a game stored before the seam", game.Record{Tag: "old", Turns: rec.Turns}, "own-archive 1"},
	} {
		a, err := Of(c.rec, games)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var out bytes.Buffer
		if err := a.Write(&out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if first, _, _ := strings.Cut(out.String(), "\n"); first != c.want {
			t.Errorf("%s: written as %q, want %q", c.name, first, c.want)
		}
		back, err := Read(&out, games)
		if err != nil {
			t.Fatalf("%s: read back: %v", c.name, err)
		}
		if back.Tag() != c.rec.Tag {
			t.Errorf("%s: read back as game %q, want %q", c.name, back.Tag(), c.rec.Tag)
		}
	}
	a, err := Read(bytes.NewReader(hosted.Bytes()), games)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Replay(-1, nil); err != nil || a.Last() != len(h.Turns)-1 {
		t.Errorf("the hosted archive read: last turn %d, replay %v", a.Last(), err)
	}
	if _, err := Of(game.Record{Tag: "old"}, game.Catalog{gametest.Nim{}}); err == nil {
		t.Error("a game stored before the seam was archived with no game to read it")
	}
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "line 1: empty file (want an archive's first line: rallyjudge-game-archive 1, or own-archive VERSION (own))"},
		{"not an archive", "hello\n", "line 1:1: not an archive of a game played here"},
		{"an archive of a game not played here", "rallyjudge-archive 1\n", "line 1:1: not an archive"},
		{"hosted, cut short", HostedMagic + " 1\n", "line 2: no header line"},
	} {
		_, err := Read(strings.NewReader(c.text), games)
		var ae *Error
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an *Error saying %q", c.name, err, c.want)
		}
	}
}

// FuzzRead: Read over a catalogue never panics, and an archive it reads is written
// again without error.
func FuzzRead(f *testing.F) {
	f.Add([]byte(HostedMagic + " 1\n{\"kind\":\"nim\",\"game\":\"g\",\"config\":{},\"seed\":1,\"seats\":[\"A\"],\"turns\":1}\n{\"turn\":0,\"hash\":\"" + strings.Repeat("a", 64) + "\"}\n"))
	f.Add([]byte("own-archive 1\ntag\n"))
	f.Add([]byte("rallyjudge-archive 1\n{}\n"))
	games := game.Catalog{ownFormat{}, gametest.Nim{}}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Read(bytes.NewReader(b), games)
		if err != nil {
			return
		}
		if err := a.Write(io.Discard); err != nil {
			t.Fatalf("an archive read is refused when written: %v", err)
		}
		_ = a.Replay(-1, nil) // never panics
	})
}
