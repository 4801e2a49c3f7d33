package roborally

import (
	"sync/atomic"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
)

// A sheet's move read ahead (game.MoveReader, game.ReadChecker): the judge reads a
// batch's mails on a goroutine of its own while it judges the mails before them one at
// a time, so RoboRally reads a sheet's move lines there (orders.Parse was a tenth of
// judging an accepted sheet), and the position's CheckRead validates what was read.

// readMove is what ReadMove read of a sheet's move lines, checked once.
type readMove struct {
	lines, file string
	sheet       *orders.Sheet
	err         error
	taken       atomic.Bool // CheckRead has the sheet: checking changes it
}

var _ game.MoveReader = Kind{}

// ReadMove reads a sheet's move lines as CheckFile reads them (parseSheet).
func (Kind) ReadMove(lines, file string) game.ReadMove {
	rm := &readMove{lines: lines, file: file}
	rm.sheet, rm.err = parseSheet(lines, file)
	return game.ReadMove{Lines: lines, File: file, Read: rm}
}

var _ game.ReadChecker = (*position)(nil)

// CheckRead is CheckFile(seat, m.Lines, m.File), with the sheet ReadMove read of them
// when it is one, of those lines and file, not yet checked.
func (p *position) CheckRead(seat int, m game.ReadMove) game.Checked {
	read := func() (*orders.Sheet, error) { return parseSheet(m.Lines, m.File) }
	if rm, ok := m.Read.(*readMove); ok && rm.lines == m.Lines && rm.file == m.File && rm.taken.CompareAndSwap(false, true) {
		read = func() (*orders.Sheet, error) { return rm.sheet, rm.err }
	}
	return p.checkSheet(seat, m.Lines, m.File, read)
}
