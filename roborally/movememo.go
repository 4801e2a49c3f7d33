package roborally

import (
	"encoding/json"
	"sync"

	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// What a position read once it does not read again. The judge asks one position, kept
// for its transaction, about every sheet of a batch: it checks a sheet (Check), folds
// the version over the seat's earlier ones (Fold, Complete) and acknowledges it
// (Acknowledge), each handed the move's bytes (game.Move.Data) or the sheet's text.
// Each decoded those bytes anew, and Acknowledge read and validated the sheet Check had
// just read and validated: a third of judging an accepted sheet was decoding JSON the
// position had made itself (issue 24 item 7).
//
// A position never changes (game.Position), so what it made of the same bytes it would
// make again: a move is kept as json.Unmarshal decoded it, by its bytes (the key is the
// whole of them; never a move the position made, which may hold what its JSON does
// not, as the lines a sheet was read from), an accepted sheet's acknowledgement by the
// seat, the file's name and the whole text. What is kept
// is shared, so no one changes it: Fold, Complete and Acknowledge only read a decoded
// sheet (orders.Merge and Effective copy what they change); Play decodes its moves
// afresh, since Prepare is handed them to change. Nothing is kept of bytes that do not
// decode, nor of a sheet with problems.

// moveMemo is a position's decoded moves and its accepted sheets' acknowledgements.
type moveMemo struct {
	// mu: the judge's writer and the goroutines reading a batch ahead of it ask at
	// once; looking up takes the read lock, so they do not queue behind one another
	mu     sync.RWMutex
	moves  map[string]move // Move.Data decoded, by its bytes
	checks map[checkKey]narrate.Ack
	order  []checkKey // the keys of checks, the oldest at next once full
	next   int
	off    bool // keep nothing (the tests' answers without the memo)
}

// maxMovesKept bounds the moves kept: when full the memo starts again empty.
const maxMovesKept = 1024

// checksKept is how many accepted sheets' acknowledgements a position keeps, the
// oldest forgotten first. The judge acknowledges a sheet after checking it, but a batch
// may check its sheets on goroutines of their own hundreds of mails ahead of the writer
// that acknowledges them (judge/movesahead.go): a batch has up to 250 mails, and the
// next is read while one is judged. A sheet forgotten is read and validated again.
const checksKept = 512

// checkKey names an accepted sheet: the seat, the file's name and the whole text.
type checkKey struct {
	seat       int
	file, text string
}

// decode is the move data holds, decoded once by the position. On an error it is what
// json.Unmarshal left of it, and nothing is kept.
func (p *position) decode(data []byte) (move, error) {
	p.memo.mu.RLock()
	mv, ok := p.memo.moves[string(data)]
	p.memo.mu.RUnlock()
	if ok {
		return mv, nil
	}
	if err := json.Unmarshal(data, &mv); err != nil {
		return mv, err
	}
	p.memo.mu.Lock()
	defer p.memo.mu.Unlock()
	if p.memo.off {
		return mv, nil
	}
	if p.memo.moves == nil || len(p.memo.moves) >= maxMovesKept {
		p.memo.moves = make(map[string]move)
	}
	p.memo.moves[string(data)] = mv
	return mv, nil
}

// keepCheck keeps the acknowledgement's parts that Acknowledge (the function) filled
// as Check accepted the sheet text (of the attached file file) for seat.
func (p *position) keepCheck(seat int, file, text string, ack narrate.Ack) {
	p.memo.mu.Lock()
	defer p.memo.mu.Unlock()
	if p.memo.off {
		return
	}
	k := checkKey{seat: seat, file: file, text: text}
	if _, ok := p.memo.checks[k]; ok {
		p.memo.checks[k] = ack // the same sheet again: the same parts
		return
	}
	if p.memo.checks == nil {
		p.memo.checks = make(map[checkKey]narrate.Ack)
	}
	if len(p.memo.order) < checksKept {
		p.memo.order = append(p.memo.order, k)
	} else {
		delete(p.memo.checks, p.memo.order[p.memo.next])
		p.memo.order[p.memo.next] = k
		p.memo.next = (p.memo.next + 1) % checksKept
	}
	p.memo.checks[k] = ack
}

// checked is what Check made of the accepted sheet text (of file) for seat, when it is
// kept.
func (p *position) checked(seat int, file, text string) (narrate.Ack, bool) {
	p.memo.mu.RLock()
	defer p.memo.mu.RUnlock()
	ack, ok := p.memo.checks[checkKey{seat: seat, file: file, text: text}]
	return ack, ok
}
