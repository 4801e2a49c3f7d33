package store

import (
	"context"
	"testing"
	"time"
)

func TestPlayerSettingsObserversPress(t *testing.T) {
	bothBackends(t, testPlayerSettingsObserversPress)
}

func testPlayerSettingsObserversPress(t *testing.T) {
	s := openTest(t)
	gameID := newGame(t, s, "people")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mustTx(t, s, func(tx *Tx) error {
		ps, err := tx.Players(gameID)
		if err != nil {
			return err
		}
		p := ps[0]
		if err := tx.SetPlayerTimezone(p.ID, "Europe/Berlin"); err != nil {
			return err
		}
		if err := tx.SetPlayerWait(p.ID, 3); err != nil {
			return err
		}
		if err := tx.SetPlayerAbsence(p.ID, "2026-03-02", "2026-03-09"); err != nil {
			return err
		}
		got, err := tx.PlayerByID(p.ID)
		if err != nil {
			return err
		}
		if got.Timezone != "Europe/Berlin" || got.WaitTurn != 3 || got.AbsentFrom != "2026-03-02" || got.AbsentUntil != "2026-03-09" {
			t.Errorf("player settings = %+v", got)
		}

		for _, tc := range []struct {
			add  func(int64, string, time.Time) (bool, error)
			rm   func(int64, string) (bool, error)
			list func(int64) ([]Watcher, error)
		}{{tx.AddObserver, tx.RemoveObserver, tx.Observers}, {tx.AddStandby, tx.RemoveStandby, tx.Standbys}} {
			if ok, err := tc.add(gameID, "Ann@example.org", now); !ok || err != nil {
				t.Fatalf("add: %v, %v", ok, err)
			}
			if ok, err := tc.add(gameID, "ann@EXAMPLE.org", now); ok || err != nil {
				t.Errorf("add twice (case differs): %v, %v; want false", ok, err)
			}
			ws, err := tc.list(gameID)
			if err != nil || len(ws) != 1 || ws[0].Email != "Ann@example.org" {
				t.Errorf("list = %+v, %v", ws, err)
			}
			if ok, err := tc.rm(gameID, "ann@example.org"); !ok || err != nil {
				t.Errorf("remove: %v, %v", ok, err)
			}
			if ok, _ := tc.rm(gameID, "ann@example.org"); ok {
				t.Error("removed twice")
			}
		}

		if _, err := tx.AddPress(Press{GameID: gameID, Turn: 1, From: p.Robot, Body: " ", Sent: now}); err == nil {
			t.Error("empty press stored")
		}
		if _, err := tx.AddPress(Press{GameID: gameID, Turn: 1, From: p.Robot, To: []string{"A", "B"}, Body: "hi", Sent: now}); err != nil {
			return err
		}
		if _, err := tx.AddPress(Press{GameID: gameID, Turn: 2, From: p.Robot, Signed: true, Body: "all", Sent: now}); err != nil {
			return err
		}
		pr, err := tx.PressOf(gameID)
		if err != nil {
			return err
		}
		if len(pr) != 2 || len(pr[0].To) != 2 || pr[0].Signed || pr[1].To != nil || !pr[1].Signed || pr[1].Body != "all" {
			t.Errorf("press = %+v", pr)
		}

		hash, err := HashSecret("code-1234-abcd")
		if err != nil {
			return err
		}
		if _, err := tx.AddAddressChange(AddressChange{PlayerID: p.ID, NewEmail: "new@example.org", CodeHash: "plain", Created: now}); err == nil {
			t.Error("a plain code was stored")
		}
		id, err := tx.AddAddressChange(AddressChange{PlayerID: p.ID, NewEmail: "new@example.org", CodeHash: hash, Created: now})
		if err != nil {
			return err
		}
		cs, err := tx.PendingAddressChanges("NEW@example.org", now.Add(-time.Hour))
		if err != nil || len(cs) != 1 || cs[0].ID != id {
			t.Errorf("pending = %+v, %v", cs, err)
		}
		if cs, _ := tx.PendingAddressChanges("new@example.org", now.Add(time.Hour)); len(cs) != 0 {
			t.Errorf("an expired change is pending: %+v", cs)
		}
		if err := tx.FinishAddressChange(id, now); err != nil {
			return err
		}
		if cs, _ := tx.PendingAddressChanges("new@example.org", now.Add(-time.Hour)); len(cs) != 0 {
			t.Errorf("a finished change is pending: %+v", cs)
		}
		return nil
	})
}

func TestPendingJoins(t *testing.T) { bothBackends(t, testPendingJoins) }

func testPendingJoins(t *testing.T) {
	st := openTest(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	hash, err := st.HashSecret("k7dm-3xqp-9wtr-hzv4")
	if err != nil {
		t.Fatal(err)
	}
	gid := newGame(t, st, "g")
	err = st.Tx(context.Background(), func(tx *Tx) error {
		if _, err := tx.AddPendingJoin(PendingJoin{GameID: gid, Email: "a@example.org", Robot: "R", CodeHash: "k7dm-3xqp-9wtr-hzv4", Created: now}); err == nil {
			t.Errorf("a plain code was stored")
		}
		if _, err := tx.AddPendingJoin(PendingJoin{GameID: gid, Email: "a@example.org", Robot: "Old", CodeHash: hash, Created: now}); err != nil {
			return err
		}
		id, err := tx.AddPendingJoin(PendingJoin{GameID: gid, Email: "a@example.org", Robot: "R", CodeHash: hash, Created: now})
		if err != nil {
			return err
		}
		ps, err := tx.PendingJoins("A@example.org", now.Add(-time.Hour))
		if err != nil || len(ps) != 1 || ps[0].Robot != "R" || ps[0].ID != id {
			t.Errorf("pending joins %+v, %v; want the newest only", ps, err)
		}
		if ps, _ := tx.PendingJoins("a@example.org", now.Add(time.Hour)); len(ps) != 0 {
			t.Errorf("an expired pending join is listed: %+v", ps)
		}
		if err := tx.FinishPendingJoin(id, now); err != nil {
			return err
		}
		if ps, _ := tx.PendingJoins("a@example.org", now.Add(-time.Hour)); len(ps) != 0 {
			t.Errorf("a confirmed join is still pending: %+v", ps)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
