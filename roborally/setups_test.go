package roborally

import (
	"bytes"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// TestSetupsKept: a position read again gets the setup kept for its course, rules and
// seed (not one made anew), and plays the same turn to the same bytes as a position
// whose setup was made anew; another seed gets another setup, and the setups kept are
// bounded.
func TestSetupsKept(t *testing.T) {
	k := Kind{}
	cfg, err := k.Configure(map[string]string{"course": "sprint", "options": "crash-burn"})
	if err != nil {
		t.Fatal(err)
	}
	start, err := k.Start(cfg, []string{"Ada", "Boris", "Cleo"}, 11)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := start.Encode()
	if err != nil {
		t.Fatal(err)
	}
	a, err := k.Load(cfg, raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := k.Load(cfg, raw)
	if err != nil {
		t.Fatal(err)
	}
	if a.(*position).setup != b.(*position).setup || a.(*position).setup != start.(*position).setup {
		t.Error("a position read again made its setup anew")
	}
	if c1, _ := k.course("sprint"); c1 != a.(*position).setup.Course {
		t.Error("the shipped course was parsed again")
	}
	// the same turn from a setup made anew
	fresh := *a.(*position).setup.Course
	course := &fresh
	setup, err := NewSetup(course, cfg.(Config).Rules, 11)
	if err != nil {
		t.Fatal(err)
	}
	anew := &position{kind: k, cfg: cfg.(Config), setup: setup, Seed: 11, State: a.(*position).State.Clone(),
		Standing: a.(*position).Standing}
	moves := map[int]game.Move{}
	for _, s := range a.Due() {
		moves[s] = a.Autopilot(s, 3)
	}
	kept, err := a.Play(moves, 3)
	if err != nil {
		t.Fatal(err)
	}
	made, err := anew.Play(moves, 3)
	if err != nil {
		t.Fatal(err)
	}
	ka, _ := kept.Next.Encode()
	ma, _ := made.Next.Encode()
	if !bytes.Equal(kept.Events, made.Events) || !bytes.Equal(ka, ma) {
		t.Error("the kept setup plays the turn otherwise than one made anew")
	}
	// another seed, another setup; no more than setupsKept are kept
	other, err := k.Start(cfg, []string{"Ada", "Boris"}, 12)
	if err != nil {
		t.Fatal(err)
	}
	if other.(*position).setup == a.(*position).setup {
		t.Error("another seed got the same setup")
	}
	for seed := int64(100); seed < 100+2*setupsKept; seed++ {
		if _, err := setupOf(course, cfg.(Config).Rules, seed); err != nil {
			t.Fatal(err)
		}
	}
	setups.mu.Lock()
	n := len(setups.kept)
	setups.mu.Unlock()
	if n != setupsKept {
		t.Errorf("%d setups kept, want %d", n, setupsKept)
	}
}

// TestReportsOfOtherEvents: the reports' shared parts are kept for the events they were
// made from only: a position asked for the reports of other events, then of the first
// again, writes each as a position asked once does.
func TestReportsOfOtherEvents(t *testing.T) {
	k := Kind{}
	cfg, err := k.Configure(map[string]string{"course": "sprint", "missed": "random"})
	if err != nil {
		t.Fatal(err)
	}
	start, err := k.Start(cfg, []string{"Ada", "Boris"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	moves := map[int]game.Move{}
	for _, s := range start.Due() {
		moves[s] = start.Autopilot(s, 1)
	}
	res, err := start.Play(moves, 1)
	if err != nil {
		t.Fatal(err)
	}
	events := [][]byte{res.Events, []byte("null")} // the turn, and a turn without events
	raw, err := start.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m := game.Mailing{Kind: game.MailReport, Seat: 0, Game: "spring", Turn: 1}
	asked, _ := k.Load(cfg, raw)
	for _, i := range []int{0, 1, 0} {
		once, _ := k.Load(cfg, raw)
		want := once.(game.Mailer).Mail(events[i], m)
		if got := asked.(game.Mailer).Mail(events[i], m); got.Text != want.Text || got.HTML != want.HTML {
			t.Errorf("events %d: the report is not the one a position asked once writes", i)
		}
	}
}
