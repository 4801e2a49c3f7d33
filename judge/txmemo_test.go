package judge

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// foldCounting is RoboRally with every Fold of its positions counted.
type foldCounting struct {
	roborally.Kind
	folds *atomic.Int64
}

func (k foldCounting) Load(c game.Config, b []byte) (game.Position, error) {
	p, err := k.Kind.Load(c, b)
	if err != nil {
		return nil, err
	}
	return countingPosition{Position: p, folds: k.folds}, nil
}

// countingPosition is a RoboRally position that counts its folds; of the optional
// parts it keeps Folder only (an accepted sheet is then answered with the judge's own
// acknowledgement, which reads the turn's moves as the game's does).
type countingPosition struct {
	game.Position
	folds *atomic.Int64
}

func (p countingPosition) Fold(seat int, earlier, later game.Move) game.Move {
	p.folds.Add(1)
	return p.Position.(game.Folder).Fold(seat, earlier, later)
}

func (p countingPosition) Complete(seat int, m game.Move) bool {
	return p.Position.(game.Folder).Complete(seat, m)
}

// countFolds makes f's judge count the folds of its RoboRally positions.
func (f *fixture) countFolds() *atomic.Int64 {
	var n atomic.Int64
	for i, k := range f.j.Games {
		if rk, ok := k.(roborally.Kind); ok {
			f.j.Games[i] = foldCounting{Kind: rk, folds: &n}
		}
	}
	return &n
}

// standingMails are n sheets of standing orders (a fold that is never complete: the
// turn waits for the programs) from Twonky and Zoombot in turn, as fetched, the server
// receiving each a second after the one before, but for those whose index is in early:
// received a minute before the batch's first.
func (f *fixture) standingMails(n int, base time.Time, early ...int) []mail.Fetched {
	robots := []string{"Twonky", "Zoombot"}
	orders := []string{"if damage > 4 then power down", "if damage > 6 then power down"}
	msgs := make([]mail.Fetched, n)
	for i := range msgs {
		r := robots[i%2]
		body := fmt.Sprintf("robot %s\nsecret %s\n%s\n", r, f.secrets[r], orders[(i/2)%2])
		f.uid++
		msgs[i] = mail.Fetched{UID: f.uid, Received: base.Add(time.Duration(i) * time.Second),
			Raw: rawMail(fmt.Sprintf("%s@example.test", strings.ToLower(r)), fmt.Sprintf("[RR spring] standing orders %d", f.uid), body)}
		for _, e := range early {
			if e == i {
				msgs[i].Received = base.Add(-time.Minute)
			}
		}
	}
	return msgs
}

// A batch of sheets for a game behind the seam folds each version once: every
// accepted sheet's acknowledgement reads the turn's moves, which read and folded every
// version of the turn for each mail (issue 24 item 7: a backlog of 1,000 sheets went
// at 30 mails/s).
func TestBatchFoldsEachVersionOnce(t *testing.T) {
	f := newFixture(t)
	folds := f.countFolds()
	ctx := context.Background()
	const perBatch = 60
	base := f.now.Add(-time.Hour)
	for b := range 2 {
		msgs := f.standingMails(perBatch, base.Add(time.Duration(b)*10*time.Minute))
		for i, err := range f.j.HandleBatch(ctx, 7, msgs) {
			if err != nil {
				t.Fatalf("batch %d mail %d: %v", b, i, err)
			}
		}
	}
	// one fold a version but each robot's first: 2 × (60 − 1) + … ; reading and folding
	// every version for every mail is some 3,600
	if n := folds.Load(); n > 2*2*perBatch {
		t.Errorf("%d folds for %d sheets; want at most %d", n, 2*perBatch, 2*2*perBatch)
	}
	var acks int
	err := f.j.Store.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, -1)
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if acks != 2*perBatch {
		t.Errorf("%d acknowledgements for %d sheets", acks, 2*perBatch)
	}
}

// The moves a batch folds as it goes, and keeps for the next batches, are the moves a
// fresh read of every version folds, also when a mail reached the server before one
// read earlier (then the robot's fold starts over).
func TestBatchFoldMatchesAFreshRead(t *testing.T) {
	for _, early := range [][]int{nil, {7}, {1, 12}} {
		t.Run(fmt.Sprint(early), func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			base := f.now.Add(-time.Hour)
			for b := range 3 {
				msgs := f.standingMails(15, base.Add(time.Duration(b)*10*time.Minute), early...)
				for i, err := range f.j.HandleBatch(ctx, 7, msgs) {
					if err != nil {
						t.Fatalf("batch %d mail %d: %v", b, i, err)
					}
				}
				kept := f.hostedMovesNow(false)
				f.j.seatFolds.reset()
				fresh := f.hostedMovesNow(true)
				if kept != fresh {
					t.Fatalf("after batch %d the moves kept are\n%s\nread afresh\n%s", b, kept, fresh)
				}
			}
		})
	}
}

// hostedMovesNow is the moves of spring's turn as hostedMoves gives them, written
// out; with oracle, the moves are folded here as the judge folded them before it kept
// folds: every valid version of each due seat, in the order received.
func (f *fixture) hostedMovesNow(oracle bool) string {
	f.t.Helper()
	var out bytes.Buffer
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		k, err := f.j.hostedKind(g)
		if err != nil {
			return err
		}
		h, err := f.j.hostedState(tx, g, k)
		if err != nil {
			return err
		}
		players, err := tx.Players(g.ID)
		if err != nil {
			return err
		}
		moves, missing, partial := map[int]game.Move{}, []int(nil), map[int]game.Move{}
		if !oracle {
			if moves, missing, partial, err = f.j.hostedMoves(tx, g, h, players); err != nil {
				return err
			}
		} else {
			folder := h.pos.(game.Folder)
			for _, seat := range h.pos.Due() {
				p := playerAt(players, seat)
				vs, err := tx.OrderVersions(g.ID, g.CurrentTurn, p.Robot)
				if err != nil {
					return err
				}
				sort.SliceStable(vs, func(a, b int) bool { return vs[a].Received.Before(vs[b].Received) })
				var got *game.Move
				for _, v := range vs {
					m, err := hostedMove(v)
					if !v.Valid || err != nil || len(m.Data) == 0 {
						continue
					}
					if got != nil {
						m = folder.Fold(seat, *got, m)
					}
					got = &m
				}
				switch {
				case got == nil:
					missing = append(missing, seat)
				case !folder.Complete(seat, *got):
					missing = append(missing, seat)
					partial[seat] = *got
				default:
					moves[seat] = *got
				}
			}
		}
		fmt.Fprintf(&out, "missing %v\n", missing)
		for _, which := range []map[int]game.Move{moves, partial} {
			seats := make([]int, 0, len(which))
			for s := range which {
				seats = append(seats, s)
			}
			sort.Ints(seats)
			for _, s := range seats {
				fmt.Fprintf(&out, "seat %d: %s %q\n", s, which[s].Data, which[s].Text)
			}
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out.String()
}
