package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Devices in scenarios (seed 001, Devices; adjudicator/devices.go):
//
//	device KIND at X,Y owner NAME [facing D] [virtual] [target X,Y] [priority N] [tries N]
//	used NAME: OPTION=N, ...
//	bomb hand NAME: P490 P500 P510 P520 P530
//	expect devices: KIND at X,Y [facing D], KIND at X,Y ... | none
//
// A device line puts a device on the board before the turn, numbered in the order
// written. `expect devices:` lists every device on the board afterwards, in launch
// order: exactly those.

type deviceLine struct {
	line int
	d    adjudicator.Device
}

func (p *parser) deviceLine(ln int, rest string) error {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return p.errf(ln, "device: want \"device KIND at X,Y owner NAME\"")
	}
	kind := adjudicator.DeviceKind(f[0])
	if !slices.Contains(adjudicator.DeviceKinds(), kind) {
		return p.errf(ln, "device: %q is not a device kind (want one of %v)", f[0], adjudicator.DeviceKinds())
	}
	dl := deviceLine{line: ln, d: adjudicator.Device{ID: len(p.devices) + 1, Kind: kind}}
	hasAt := false
	for k := 1; k < len(f); k++ {
		arg := func() (string, error) {
			if k+1 >= len(f) {
				return "", p.errf(ln, "device %s: %s needs a value", f[0], f[k])
			}
			k++
			return f[k], nil
		}
		word := f[k]
		switch word {
		case "at", "target":
			v, err := arg()
			if err != nil {
				return err
			}
			pos, ok := parsePos(v)
			if !ok {
				return p.errf(ln, "device %s: %s wants x,y, got %q", f[0], word, v)
			}
			if word == "at" {
				dl.d.Pos, hasAt = pos, true
			} else {
				dl.d.Target = &pos
			}
		case "owner":
			v, err := arg()
			if err != nil {
				return err
			}
			if p.robot(v) == nil {
				return p.errf(ln, "device %s: owner %q is not a robot declared above", f[0], v)
			}
			dl.d.Owner = v
		case "facing":
			v, err := arg()
			if err != nil {
				return err
			}
			d, ok := adjudicator.ParseDir(v)
			if !ok {
				return p.errf(ln, "device %s: facing wants N, E, S or W, got %q", f[0], v)
			}
			dl.d.Facing = d
		case "virtual":
			dl.d.Virtual = true
		case "priority", "tries":
			v, err := arg()
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return p.errf(ln, "device %s: %s wants a number, got %q", f[0], word, v)
			}
			if word == "priority" {
				dl.d.Priority = n
			} else {
				dl.d.Tries = n
			}
		default:
			return p.errf(ln, "device %s: unknown word %q (want at, owner, facing, virtual, target, priority, tries)", f[0], word)
		}
	}
	if !hasAt || dl.d.Owner == "" {
		return p.errf(ln, "device %s: want its square and owner: at X,Y owner NAME", f[0])
	}
	p.devices = append(p.devices, dl)
	return nil
}

// deviceItem is one item of an expect devices line.
var deviceItem = regexp.MustCompile(`^\s*([a-z-]+) at (-?\d+),(-?\d+)(?: facing ([NESW]))?\s*(?:,|$)`)

// devicesExpect reads "expect devices: KIND at X,Y [facing D], ... | none".
func (p *parser) devicesExpect(ln int, body string, add func(func(r *Result) string)) error {
	var want []string
	if rest := strings.TrimSpace(body); rest != "none" {
		for rest != "" {
			m := deviceItem.FindStringSubmatch(rest)
			if m == nil {
				return p.errf(ln, "expect devices: want \"KIND at X,Y [facing D]\" items separated by commas, or none; got %q", rest)
			}
			if !slices.Contains(adjudicator.DeviceKinds(), adjudicator.DeviceKind(m[1])) {
				return p.errf(ln, "expect devices: %q is not a device kind (want one of %v)", m[1], adjudicator.DeviceKinds())
			}
			s := fmt.Sprintf("%s at %s,%s", m[1], m[2], m[3])
			if m[4] != "" {
				s += " facing " + m[4]
			}
			want = append(want, s)
			rest = strings.TrimSpace(rest[len(m[0]):])
		}
	}
	add(func(r *Result) string {
		var got []string
		for k, d := range r.State.Devices {
			s := fmt.Sprintf("%s at %v", d.Kind, d.Pos)
			if k < len(want) && strings.Contains(want[k], " facing ") {
				s += " facing " + d.Facing.String()
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			return "devices: " + listOrNone(got)
		}
		return ""
	})
	return nil
}

// placeDevices puts the device lines' devices into the state, numbered in the order
// written, and the used lines' counts on the robots' options.
func (p *parser) placeDevices(st *adjudicator.State) error {
	for _, dl := range p.devices {
		st.Devices = append(st.Devices, dl.d)
	}
	for i, rl := range p.robots {
		st.Robots[i].BombHand = rl.bomb
		if rl.used == nil {
			continue
		}
		r := &st.Robots[i]
		r.Tokens = make([]int, len(r.Options))
		for name, n := range rl.used {
			k := slices.Index(r.Options, name)
			if k < 0 {
				return p.errf(rl.usedAt, "used %s: %s does not hold %s", r.Name, r.Name, name)
			}
			r.Tokens[k] = n
		}
	}
	return nil
}

// usedLine reads "used NAME: OPTION=N, ...": how much of each held option's payload
// (launched devices, fuel, shots) the robot has used up before the turn.
func (p *parser) usedLine(ln int, rest string) error {
	name, list, ok := strings.Cut(rest, ":")
	rl := p.robot(strings.TrimSpace(name))
	if !ok || rl == nil {
		return p.errf(ln, "used: want \"used ROBOT: OPTION=N, ...\" after the robot's line")
	}
	rl.used, rl.usedAt = map[string]int{}, ln
	for _, item := range strings.Split(list, ",") {
		o, v, ok := strings.Cut(item, "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n < 0 {
			return p.errf(ln, "used %s: want OPTION=N, got %q", rl.r.Name, strings.TrimSpace(item))
		}
		rl.used[strings.TrimSpace(o)] = n
	}
	return nil
}

// usedExpect reads "expect used NAME: OPTION=N, ...": what each named option the robot
// holds afterwards has used up (devices launched, fuel programmed, shots), as the used
// line writes it before the turn. An option it no longer holds fails the expectation.
func (p *parser) usedExpect(ln int, name, body string, add func(func(r *Result) string)) error {
	idx := p.robotIndex(strings.TrimSpace(name))
	if idx < 0 {
		return p.errf(ln, "expect used: %q is not a robot of this scenario", name)
	}
	type want struct {
		option string
		n      int
	}
	var wants []want
	for _, item := range strings.Split(body, ",") {
		o, v, ok := strings.Cut(item, "=")
		o = strings.TrimSpace(o)
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n < 0 {
			return p.errf(ln, "expect used %s: want OPTION=N, got %q", name, strings.TrimSpace(item))
		}
		if !slices.Contains(adjudicator.OptionNames(), o) {
			return p.errf(ln, "expect used %s: %q is not an option card", name, o)
		}
		wants = append(wants, want{o, n})
	}
	add(func(r *Result) string {
		rb := &r.State.Robots[idx]
		for _, w := range wants {
			k := slices.Index(rb.Options, w.option)
			if k < 0 {
				return fmt.Sprintf("used %s: %s not held", name, w.option)
			}
			got := 0
			if k < len(rb.Tokens) {
				got = rb.Tokens[k]
			}
			if got != w.n {
				return fmt.Sprintf("used %s: %s=%d", name, w.option, got)
			}
		}
		return ""
	})
	return nil
}

// bombLine reads "bomb hand NAME: P490 P500 P510 P520 P530": the five cards a robot
// holding a Buzz Bomb was dealt for its bomb (adjudicator.Robot.BombHand).
func (p *parser) bombLine(ln int, rest string) error {
	rest, ok := strings.CutPrefix(rest, "hand ")
	name, list, ok2 := strings.Cut(rest, ":")
	rl := p.robot(strings.TrimSpace(name))
	if !ok || !ok2 || rl == nil {
		return p.errf(ln, "bomb hand: want \"bomb hand ROBOT: P490 P500 P510 P520 P530\" after the robot's line")
	}
	rl.bomb = nil
	for _, f := range strings.Fields(list) {
		c, ok := parseCard(f)
		if !ok || c == 0 {
			return p.errf(ln, "bomb hand %s: %q is not a card (want P490)", rl.r.Name, f)
		}
		rl.bomb = append(rl.bomb, c)
	}
	return nil
}
