package judge

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// A sheet checked ahead of the writer (issue 24 item 7). A batch reads its mails on
// goroutines of their own (batchItem.read), and the single writer then judges them one
// at a time; checking a sheet against its game's position (game.ReadChecker) was a
// fifth of the writer's time a mail. So a reader that has read a sheet checks it too,
// speculatively, against the position the writer last judged the game's sheets with,
// and the seat its robot (or sender) had then; the writer takes that check only when
// it judges the sheet for that seat on that very position, else it checks the sheet as
// it always did.
//
// A position is what the game decoded from the game's settings and its latest turn's
// bytes, and never changes (game.Position): checking the same move for the same seat
// on it gives the same answer whoever asks, and when. So the writer's test is the
// position's identity (keptPosition.id), and nothing the reader guessed (the game by
// its tag, the seat by the robot's name or the sender, without the database) can change
// what the writer decides: a wrong guess, a turn played, a game master's command, a
// turn stored by another judge all give the writer another position or seat, and the
// sheet is checked again. To make a position the writer holds one the readers can have
// checked with, the positions decoded are kept across transactions (positionCache), and
// handed out again for the same settings and turn bytes.

// positionCache is the positions of hosted games the judge decoded, at most one a game,
// kept across transactions: hostedState hands one out again when the game's settings
// and latest turn are byte for byte what it was decoded from, and the readers of a batch
// check sheets with it. Its entries are never changed once kept (a new one replaces an
// old), so a reader holds one without the lock.
type positionCache struct {
	mu    sync.Mutex
	byID  map[int64]*keptPosition
	byTag map[string]*keptPosition
	last  uint64 // the last id given

	// what the writers did with the checks made ahead (tests)
	used, missed atomic.Int64
}

// maxPositionsKept bounds the positions kept: when full the cache starts again empty.
const maxPositionsKept = 64

// keptPosition is one game's position as decoded, what from, and the game's players as
// a sheet was last judged with it.
type keptPosition struct {
	id      uint64 // this position's, never another's (hosted.id)
	catalog catalogID
	kind    string
	rules   string
	tag     string // the game's, in lower case
	h       hosted
	players []store.Player // nil until a sheet is judged with the position (seated)
}

// catalogID tells one catalogue of games (Judge.Games) from another: a position is
// handed out again only by the catalogue whose game decoded it.
type catalogID struct {
	first *game.Kind
	n     int
}

func catalogOf(c game.Catalog) catalogID {
	if len(c) == 0 {
		return catalogID{}
	}
	return catalogID{&c[0], len(c)}
}

// at is g's position kept, when it was decoded by the catalogue c's game k from g's
// settings and the turn last, byte for byte; its hosted.last is last.
func (pc *positionCache) at(c game.Catalog, g store.Game, k game.Kind, last store.Turn) (hosted, bool) {
	pc.mu.Lock()
	kp := pc.byID[g.ID]
	pc.mu.Unlock()
	if kp == nil || kp.catalog != catalogOf(c) || kp.kind != k.Name() || kp.rules != string(g.Rules) ||
		kp.h.last.ID != last.ID || kp.h.last.Number != last.Number || !bytes.Equal(kp.h.last.After, last.After) {
		return hosted{}, false
	}
	h := kp.h
	h.last = last
	return h, true
}

// keep keeps h, g's position just decoded by the catalogue c's game, and gives it its
// id.
func (pc *positionCache) keep(c game.Catalog, g store.Game, h hosted) hosted {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.last++
	h.id = pc.last
	kp := &keptPosition{id: h.id, catalog: catalogOf(c), kind: h.kind.Name(), rules: string(g.Rules), tag: strings.ToLower(g.Tag), h: h}
	pc.put(g.ID, kp)
	return h
}

func (pc *positionCache) put(id int64, kp *keptPosition) {
	if pc.byID == nil || len(pc.byID) >= maxPositionsKept {
		pc.byID, pc.byTag = map[int64]*keptPosition{}, map[string]*keptPosition{}
	}
	if old := pc.byID[id]; old != nil && pc.byTag[old.tag] == old {
		delete(pc.byTag, old.tag)
	}
	pc.byID[id] = kp
	pc.byTag[kp.tag] = kp
}

// seated says that a sheet of g was judged with the kept position h, the game's
// players being players: the readers guess a sheet's seat from them.
func (pc *positionCache) seated(g store.Game, h hosted, players []store.Player) {
	if h.id == 0 {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	kp := pc.byID[g.ID]
	if kp == nil || kp.id != h.id || samePlayers(kp.players, players) {
		return
	}
	seated := *kp
	seated.players = make([]store.Player, len(players))
	for i, p := range players {
		seated.players[i] = seatOf(p)
	}
	pc.put(g.ID, &seated)
}

// seatOf is what of p a reader needs to guess a sheet's seat: nothing of its secret.
func seatOf(p store.Player) store.Player {
	return store.Player{Robot: p.Robot, Seat: p.Seat, Email: p.Email, Withdrawn: p.Withdrawn}
}

// samePlayers says whether kept, a copy made by seated, was copied from players as they
// are now.
func samePlayers(kept, players []store.Player) bool {
	if kept == nil || len(kept) != len(players) {
		return false
	}
	for i := range kept {
		if kept[i] != seatOf(players[i]) {
			return false
		}
	}
	return true
}

// byTagged is the position kept of the game tagged tag (lower case), nil if none is.
func (pc *positionCache) byTagged(tag string) *keptPosition {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.byTag[tag]
}

// reset forgets every position.
func (pc *positionCache) reset() {
	pc.mu.Lock()
	pc.byID, pc.byTag = nil, nil
	pc.mu.Unlock()
}

// checkedAhead is a sheet checked by a reader: on which position, for which seat, and
// what the position said.
type checkedAhead struct {
	id      uint64
	seat    int
	checked game.Checked
}

// checkMoveAhead checks rd's move, read ahead (readAhead), on a reader of the batch: with
// the position kept of the game the sheet or the subject names, for the seat of the
// robot it names or, without one, of its sender, when that seat's move is due. It must
// not touch the judge's state but pc: it runs beside the writer.
func (rd *Reading) checkMoveAhead(pc *positionCache, msg *mail.Message) {
	if rd.ahead == nil || rd.Sheet == nil || msg == nil {
		return
	}
	tag := strings.ToLower(rd.Sheet.Game)
	if tag == "" {
		if m := tagInSubject.FindStringSubmatch(msg.Subject); m != nil {
			tag = strings.ToLower(m[1])
		}
	}
	kp := pc.byTagged(tag)
	if kp == nil || kp.players == nil {
		return
	}
	rc, ok := kp.h.pos.(game.ReadChecker)
	if !ok {
		return
	}
	var p *store.Player
	if rd.Sheet.Seat != "" {
		p = playerByRobot(kp.players, rd.Sheet.Seat)
	} else {
		from := strings.ToLower(strings.TrimSpace(msg.From))
		for i := range kp.players {
			if strings.EqualFold(kp.players[i].Email, from) {
				p = &kp.players[i]
				break
			}
		}
	}
	// as judgeHostedSheet checks a move: for the turn collected, of a seat that may move
	if p == nil || p.Withdrawn || (rd.Sheet.Turn != 0 && rd.Sheet.Turn != kp.h.last.Number+1) ||
		(!slices.Contains(kp.h.pos.Due(), p.Seat) && !maySend(kp.h.pos, p.Seat)) {
		return
	}
	rd.checked = &checkedAhead{id: kp.id, seat: p.Seat, checked: rc.CheckRead(p.Seat, *rd.ahead)}
}

// checkRead is checkMove of rd's move, the seat's orders on the position h: as a reader
// checked it ahead on that very position for that seat (checkMoveAhead), else what was read
// of it ahead when the position checks that (game.ReadChecker).
func (j *Judge) checkRead(h hosted, seat int, rd *Reading) game.Checked {
	if c := rd.checked; c != nil {
		rd.checked = nil
		if h.id != 0 && c.id == h.id && c.seat == seat {
			j.positions.used.Add(1)
			return c.checked
		}
		j.positions.missed.Add(1)
	}
	if rc, ok := h.pos.(game.ReadChecker); ok && rd.ahead != nil {
		return rc.CheckRead(seat, *rd.ahead)
	}
	return checkMove(h.pos, seat, moveLines(rd), sheetFile(rd))
}
