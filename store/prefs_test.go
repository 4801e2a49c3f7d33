package store

import (
	"context"
	"errors"
	"testing"
)

func TestPlayerPictures(t *testing.T) { bothBackends(t, testPlayerPictures) }

func testPlayerPictures(t *testing.T) {
	s := openTest(t)
	gameID := newGame(t, s, "prefs")
	var ids []int64
	mustTx(t, s, func(tx *Tx) error {
		ps, err := tx.Players(gameID)
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		return err
	})
	if len(ids) < 2 {
		t.Fatalf("fixture has %d players", len(ids))
	}
	err := s.Tx(context.Background(), func(tx *Tx) error {
		on, err := tx.PlayerPictures(ids[0])
		if err != nil || !on {
			t.Fatalf("pictures default %v, %v; want on", on, err)
		}
		if err := tx.SetPlayerPictures(ids[0], false); err != nil {
			return err
		}
		if on, _ := tx.PlayerPictures(ids[0]); on {
			t.Error("pictures still on after SetPlayerPictures(false)")
		}
		off, err := tx.PicturesOff(gameID)
		if err != nil {
			return err
		}
		if len(off) != 1 || !off[ids[0]] {
			t.Errorf("PicturesOff = %v, want only %d", off, ids[0])
		}
		if err := tx.SetPlayerPictures(ids[0], true); err != nil {
			return err
		}
		if off, _ := tx.PicturesOff(gameID); len(off) != 0 {
			t.Errorf("PicturesOff after switching back on = %v", off)
		}
		if err := tx.SetPlayerPictures(99999, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown player: %v, want ErrNotFound", err)
		}
		if _, err := tx.PlayerPictures(99999); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown player: %v, want ErrNotFound", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
