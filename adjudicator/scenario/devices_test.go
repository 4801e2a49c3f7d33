package scenario

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/picture"
)

// The event log tells every device's life: replaying it on the devices a turn began
// with (picture.ApplyDeviceEvent, as the pictures and the replay page do) gives the devices the turn
// ended with, in every scenario that has devices.
func TestDeviceEventsReplayTheDevices(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "7[5-9]*.scn"))
	if err != nil || len(files) < 20 {
		t.Fatalf("%d device scenarios (%v)", len(files), err)
	}
	checked := 0
	for _, f := range files {
		sc, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sc.Run()
		if err != nil {
			t.Fatal(err)
		}
		devs := sc.State.Devices
		for _, e := range res.Events {
			devs = picture.ApplyDeviceEvent(devs, e)
		}
		show := func(ds []adjudicator.Device) string {
			s := ""
			for _, d := range ds {
				s += fmt.Sprintf("%d %s %v %v; ", d.ID, d.Kind, d.Pos, d.Facing)
			}
			return s
		}
		if got, want := show(devs), show(res.State.Devices); got != want {
			t.Errorf("%s: the log replays to %s, the turn ended with %s", filepath.Base(f), got, want)
		}
		if len(res.State.Devices) > 0 || len(sc.State.Devices) > 0 {
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d scenarios with devices", checked)
	}
}
