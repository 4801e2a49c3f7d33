package archive

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
)

// Every archive opens with the line "MAGIC VERSION". HostedMagic is the format of the
// games behind the seam (Hosted); a Kind with a format of its own (game.Archiver:
// RoboRally's .rja) names its magic. Read picks a file's format by it and Of a stored
// game's by its Kind, over the catalogue, without asking which game it is.

// Read reads an archive of any game the catalogue hosts: the format of the games behind
// the seam (HostedMagic) or the format of the Kind whose magic the first line opens
// with. Input is hostile: an error names the line (and column) where it went wrong.
func Read(r io.Reader, games game.Catalog) (game.Archive, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	magic, _, _ := strings.Cut(string(head), " ")
	if magic == HostedMagic {
		h, err := ReadHosted(br)
		if err != nil {
			return nil, err
		}
		return &hostedFile{h: h, games: games}, nil
	}
	want := []string{fmt.Sprintf("%s %d", HostedMagic, HostedVersion)}
	for _, k := range games {
		a, ok := k.(game.Archiver)
		if !ok {
			continue
		}
		if magic == a.ArchiveMagic() {
			return a.ReadArchive(br)
		}
		want = append(want, fmt.Sprintf("%s VERSION (%s)", a.ArchiveMagic(), k.Name()))
	}
	if len(head) == 0 {
		return nil, &Error{Line: 1, Msg: "empty file (want an archive's first line: " + strings.Join(want, ", or ") + ")"}
	}
	return nil, &Error{Line: 1, Col: 1, Msg: "not an archive of a game played here (want an archive's first line: " + strings.Join(want, ", or ") + ")"}
}

// Of is a stored game's archive (RecordOf) in its game's format: the Kind's own
// (game.Archiver), or the format of the games behind the seam (Hosted). A game stored
// before the seam (Kind "") is the catalogue's game.Legacy Kind's, which adopts such
// games. Archive.Write writes it; the same record gives the same bytes.
func Of(rec game.Record, games game.Catalog) (game.Archive, error) {
	var k game.Kind
	if rec.Kind == "" {
		for _, c := range games {
			if _, ok := c.(game.Legacy); ok {
				k = c
				break
			}
		}
		if k == nil {
			return nil, fmt.Errorf("archive: game %s was stored before the game seam and no game here reads it", rec.Tag)
		}
	} else if c, err := games.Lookup(rec.Kind); err == nil {
		k = c
	}
	if a, ok := k.(game.Archiver); ok {
		return a.ArchiveOf(rec)
	}
	if rec.Kind == "" {
		return nil, fmt.Errorf("archive: game %s was stored before the game seam and %s writes no archive of it", rec.Tag, k.Name())
	}
	h, err := HostedOf(rec)
	if err != nil {
		return nil, err
	}
	return &hostedFile{h: h, games: games}, nil
}
