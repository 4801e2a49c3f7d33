package archive

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

var updateDevices = flag.Bool("update-devices", false, "rewrite testdata/replay-devices.golden")

// The replay page draws the devices on the board (seed 001, Devices): every frame
// carries them when they changed, replayed from the log; the frames of a game in which
// robots launch missiles and lay mines are golden. Each robot starts with a launcher
// (the Standard Option Package over a deck of launchers) and orders to use it.
func TestHTMLDevices(t *testing.T) {
	rules := adjudicator.PostalRules()
	rules.OptionPackage = "standard"
	deck := []string{"Missile Launcher", "Mine Layer", "Drone Launcher", "Proximity Mine"}
	var rs []orders.Rule
	for k, o := range []string{"use Missile Launcher", "use Drone Launcher", "use Mine Layer in register 2", "use Proximity Mine in register 3"} {
		r, err := orders.ParseRule(o, k+1)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	a := playGameWithAll(t, "sprint", 4, 8, 21, rules, deck, &orders.Sheet{Rules: rs})
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	seen := 0
	err = Replay(&a, setup, -1, func(s Step) error {
		if s.Turn == 0 {
			return nil
		}
		fs := turnFrames(setup.Course.Board, s, setup.Deck)
		compact(fs)
		if got, want := fs[len(fs)-1].Devices, packDevices(s.After.Devices, s.After.Robots); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("turn %d: the last frame's devices %v, the state after the turn has %v", s.Turn, got, want)
		}
		// Replayed from the log, the devices before the last frame end where the state
		// after the turn has them.
		if n := len(fs); n >= 2 && fmt.Sprint(fs[n-2].Devices) != fmt.Sprint(fs[n-1].Devices) {
			t.Errorf("turn %d: devices replayed from the log %v, the state after the turn %v", s.Turn, fs[n-2].Devices, fs[n-1].Devices)
		}
		for k, f := range fs {
			seen += len(f.Devices)
			if f.V != nil {
				lines = append(lines, fmt.Sprintf("turn %d frame %d %q: %v", s.Turn, k, f.Caption, f.V))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no device was on the board in any frame: the fixture shows nothing")
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "replay-devices.golden")
	if *updateDevices {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the page's devices differ from %s (go test ./archive -run TestHTMLDevices -update-devices):\n%s", path, got)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, &a, HTMLOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `"v":[[`) || !strings.Contains(page.String(), "function device(") {
		t.Error("the page carries no devices or does not draw them")
	}
}
