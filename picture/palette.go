package picture

import "image/color"

// Colour indexes into the shared palette. Every picture and every GIF frame uses the
// one palette (newPalette), so a GIF needs no local colour tables. docs/pictures.md
// lists what each colour means.
const (
	cPage         = iota            // margin background
	cInk                            // text and outlines
	cWhite                          // white
	cFloor                          // plain floor tile
	cFloorEdge                      // grout between tiles
	cPit                            // a pit: a hole in the floor
	cPitEdge                        // the rim of a pit
	cWall                           // walls
	cWallEdge                       // the dark edge of a wall
	cBelt                           // normal conveyor belt
	cBeltInk                        // arrows on a normal belt
	cExpress                        // express conveyor belt
	cExpressInk                     // arrows on an express belt
	cGearL                          // gear turning left (anticlockwise): red
	cGearR                          // gear turning right (clockwise): green
	cPusher                         // pusher plate
	cCrusher                        // crusher teeth
	cLaser                          // laser emitter
	cBeam                           // laser beam
	cHit                            // a laser hit, the live part of a beam
	cRepair                         // repair site disc
	cFlag                           // flag disc
	cFlagPole                       // flag pole
	cStart                          // start square marker
	cCaption                        // caption band
	cCaptionInk                     // caption text
	cLegend                         // legend band
	cGrey                           // powered-down robot body
	cHalo                           // the robot acting in this step
	cDestroyed                      // a robot destroyed here this step
	cOil                            // oil slick (seed 003 Grand Prix, seed 000)
	cPortal                         // portal ring
	cHigh                           // floor on an upper level
	cLedge                          // a ledge: the "thick brown lines" of seed 003
	cRamp                           // a ramp between levels
	cRepulsor                       // repulsor field
	cDoor                           // swing door
	cChop                           // chop shop
	cFlamer                         // flamer
	cStomper                        // stomper
	cWater                          // water (seed 001)
	cCurrent                        // a current's chevrons
	cTeleporter                     // teleporter
	cRandomizer                     // randomizer
	cDrain                          // a drain's rings in its pit
	cGreenBelt                      // 2023 rules: green conveyor belt (seed 004)
	cGreenBeltInk                   // arrows on a green belt
	cBattery                        // 2023 rules: battery
	cBatteryInk                     // the battery's bolt
	cReboot                         // 2023 rules: reboot token
	cDock                           // 2023 rules: the docking bay's floor
	cEnergy                         // a robot's energy in the legend
	cRobot0                         // seat colours: cRobot0 + seat
	cTint0        = cRobot0 + seats // virtual robot fill: cTint0 + seat
	cClear        = cTint0 + seats  // transparent: only in GIF frame deltas
	numColours    = cClear + 1
)

// seats is the number of fixed seat colours (adjudicator.MaxRobots).
const seats = 8

// seatRGB is each seat's colour, chosen to stay apart from one another and from the
// board's colours (after Sasha Trubetskoy's list of distinct colours).
const seatRGB = "e6194b" + "3cb44b" + "4363d8" + "f58231" + "911eb4" + "42d4f4" + "f032e6" + "9a6324"

// newPalette returns the shared palette (a fresh slice each call).
func newPalette() color.Palette {
	rgb := func(s string) color.RGBA {
		var v [3]uint8
		for i := range v {
			v[i] = hexByte(s[2*i])<<4 | hexByte(s[2*i+1])
		}
		return color.RGBA{v[0], v[1], v[2], 0xff}
	}
	p := make(color.Palette, numColours)
	base := map[int]string{
		cPage: "f4f3ee", cInk: "111111", cWhite: "ffffff",
		cFloor: "c9c9c3", cFloorEdge: "a9a9a2", cPit: "141414", cPitEdge: "4a4a4a",
		cWall: "f08c00", cWallEdge: "5a3500",
		cBelt: "e8d56a", cBeltInk: "5a4800", cExpress: "4f86d0", cExpressInk: "ffffff",
		cGearL: "c8383a", cGearR: "2e9e4a", cPusher: "a8703c", cCrusher: "3c3c48",
		cLaser: "9a0e0e", cBeam: "ff2a2a", cHit: "fff04a",
		cRepair: "2c6e3a", cFlag: "ffc800", cFlagPole: "333333", cStart: "ecebe4",
		cCaption: "22262b", cCaptionInk: "ffffff", cLegend: "e6e4dc",
		cGrey: "8c8c8c", cHalo: "fff04a", cDestroyed: "d00000",
		cOil: "2b2233", cPortal: "7a3fc0", cHigh: "e2e2dc", cLedge: "6b3e1e", cRamp: "b08a5a",
		cRepulsor: "19a7bd", cDoor: "5b6f8a", cChop: "2a6fb0", cFlamer: "ff6a00", cStomper: "4b4b5a",
		cWater: "a9d8f2", cCurrent: "2f73b8", cTeleporter: "1f9e6e", cRandomizer: "e2b53a", cDrain: "23486e",
		cGreenBelt: "6cc46a", cGreenBeltInk: "1d4d1c", cBattery: "2b8c3e", cBatteryInk: "ffe14a",
		cReboot: "1f6fb2", cDock: "b3b8bf", cEnergy: "f2c500",
	}
	for i, s := range base {
		p[i] = rgb(s)
	}
	floor := rgb(base[cFloor])
	for s := 0; s < seats; s++ {
		c := rgb(seatRGB[6*s : 6*s+6])
		p[cRobot0+s] = c
		// A virtual robot's fill: a third of its colour over the floor ("translucent").
		mix := func(a, b uint8) uint8 { return uint8((int(a) + 2*int(b)) / 3) }
		p[cTint0+s] = color.RGBA{mix(c.R, floor.R), mix(c.G, floor.G), mix(c.B, floor.B), 0xff}
	}
	p[cClear] = color.RGBA{}
	return p
}

func hexByte(c byte) uint8 {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return 0
}

// seatInk is the colour of the letter on a robot of seat s: black on light colours.
func seatInk(p color.Palette, s int) uint8 {
	r, g, b, _ := p[cRobot0+s%seats].RGBA()
	if (299*r+587*g+114*b)/1000 > 0x9000 {
		return cInk
	}
	return cWhite
}
