//go:build !race

package mail

const raceEnabled = false
