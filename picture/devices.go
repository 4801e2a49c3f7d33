package picture

import (
	"image"
	"math"
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Devices on the board (seed 001, Devices: mines, goo, bridges, teleporters, bombs,
// drones, missiles, buzz bombs; adjudicator/devices.go). Each is a badge in its
// square: a diamond in the colour of the robot that launched it, with the device's
// letter (adjudicator.DeviceSymbol, as in the text pictures) and, for a device that
// moves (drones, missiles, buzz bombs), a tick on the side it faces. Flat devices sit
// in the square's lower-left corner and flying ones in its upper-right, so a robot on
// the square (drawn over the middle) leaves them in sight. A drone's target counter
// is a ring of its colour on the target square.

// devices draws ds under the robots.
func (p *painter) devices(img *image.Paletted, ds []adjudicator.Device, robots []adjudicator.Robot) {
	cv := canvas{img}
	cs := float64(p.l.cs)
	seatOf := func(owner string) int {
		return max(slices.IndexFunc(robots, func(r adjudicator.Robot) bool { return r.Name == owner }), 0)
	}
	for _, d := range ds {
		if d.Target != nil && p.b.In(*d.Target) {
			cx, cy := p.l.centre(*d.Target)
			cv.ring(cx, cy, cs*0.42, math.Max(2, cs/14), uint8(cRobot0+seatOf(d.Owner)%seats))
		}
	}
	for _, d := range ds {
		if !p.b.In(d.Pos) {
			continue
		}
		seat := seatOf(d.Owner) % seats
		cx, cy := p.l.centre(d.Pos)
		r := math.Max(5, cs*0.22)
		bx, by := cx-cs/2+r+1, cy+cs/2-r-1 // flat: lower left
		if d.Kind.Flying() {
			bx, by = cx+cs/2-r-1, cy-cs/2+r+1 // flying: upper right
		}
		if Moving(d.Kind) {
			ux, uy := unit(d.Facing)
			cv.line(bx, by, bx+ux*(r+3), by+uy*(r+3), math.Max(2, cs/14), cInk)
		}
		diamond := func(rr float64, col uint8) {
			cv.poly(col, [2]float64{bx, by - rr}, [2]float64{bx + rr, by}, [2]float64{bx, by + rr}, [2]float64{bx - rr, by})
		}
		diamond(r+1, cInk)
		diamond(r, uint8(cRobot0+seat))
		if r >= 6 {
			cv.text(int(math.Round(bx-3.5)), int(math.Round(by-7)), string(adjudicator.DeviceSymbol(d.Kind)), seatInk(cv.img.Palette, seat), 0)
		}
	}
}

// Moving reports whether devices of the kind move on their own, and so face a way.
func Moving(k adjudicator.DeviceKind) bool {
	return k == adjudicator.DevDrone || k == adjudicator.DevMissile || k == adjudicator.DevBuzzBomb
}

// ApplyDeviceEvent replays one event of the log on the devices, as
// adjudicator.ApplyEvent does on the robots: a launch adds one (with a drone's target
// counter), a move moves it, a drone's new target moves its counter, a device leaving the
// board takes it off. Other events change nothing. ds is not changed.
func ApplyDeviceEvent(ds []adjudicator.Device, e adjudicator.Event) []adjudicator.Device {
	switch e.Kind {
	case adjudicator.EvLaunch:
		if e.To == nil {
			return ds
		}
		d := adjudicator.Device{ID: e.Amount, Kind: adjudicator.DeviceKind(e.Device), Owner: e.Robot, Pos: *e.To}
		if e.Facing != nil {
			d.Facing = *e.Facing
		}
		if e.Target != nil {
			target := *e.Target // a drone's target counter
			d.Target = &target
		}
		return append(slices.Clip(ds), d)
	case adjudicator.EvUse:
		// A waiting drone that sees a robot moves its target counter (seed 001, Drone
		// Launcher); logs written before the event named the drone carry no Target.
		k := slices.IndexFunc(ds, func(d adjudicator.Device) bool { return d.ID == e.Amount })
		if e.Target == nil || e.Device == "" || k < 0 {
			return ds
		}
		ds = slices.Clone(ds)
		target := *e.Target
		ds[k].Target = &target
		return ds
	case adjudicator.EvDeviceMove:
		k := slices.IndexFunc(ds, func(d adjudicator.Device) bool { return d.ID == e.Amount })
		if k < 0 || e.To == nil {
			return ds
		}
		ds = slices.Clone(ds)
		ds[k].Pos = *e.To
		if e.Facing != nil {
			ds[k].Facing = *e.Facing
		}
		return ds
	case adjudicator.EvDeviceGone:
		return slices.DeleteFunc(slices.Clone(ds), func(d adjudicator.Device) bool { return d.ID == e.Amount })
	}
	return ds
}
