package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
	"io"
	"path/filepath"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"

	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
)

// cmdResolve runs one scenario file (docs/scenarios.md) and prints the resulting state
// and event log as JSON on stdout. Exit status: 0 when the file's expectations hold, 1
// when they don't (the differences on stderr), 2 when the input cannot be read or
// resolved.
func cmdResolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameName := fs.String("game", games.RoboRally, "the game the scenario is of: "+strings.Join(games.Hosted().Names(), ", "))
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rallyjudge resolve [--game NAME] FILE.scn|TURN.json\n\nPrints the state after the turn and the event log as JSON (docs/scenarios.md;\nfor Crash by Crash, --game crash-by-crash: docs/crash-by-crash.md).\nExit 0: expectations hold; 1: they don't; 2: unreadable input.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	b, err := readStateFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if !strings.EqualFold(*gameName, games.RoboRally) {
		k, err := games.Hosted().Lookup(*gameName)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
			return 2
		}
		sc, ok := k.(game.Scenarios)
		if !ok {
			fmt.Fprintf(stderr, "rallyjudge resolve: %s has no scenario files\n", k.Title())
			return 2
		}
		out, err := sc.RunScenario(string(b))
		if out != nil {
			fmt.Fprintf(stdout, "%s\n", out)
		}
		switch {
		case err != nil && out == nil:
			fmt.Fprintf(stderr, "rallyjudge resolve: %s: %v\n", fs.Arg(0), err)
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "rallyjudge resolve: %s: %v\n", fs.Arg(0), err)
			return 1
		}
		return 0
	}
	if isSavedTurn(b) {
		return resolveSavedTurn(fs.Arg(0), b, stdout, stderr)
	}
	s, err := scenario.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	res, err := s.Run()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	out, err := res.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if diffs := s.Check(res); len(diffs) > 0 {
		fmt.Fprintf(stderr, "rallyjudge resolve: %d of %d expectations do not hold:\n", len(diffs), s.Expectations())
		for _, d := range diffs {
			fmt.Fprintln(stderr, d)
		}
		return 1
	}
	return 0
}

// resolveSavedTurn plays a saved turn (docs/scenarios.md, "Saved turns"): the state
// before the turn and every robot's orders as the judge records them. Its output is
// {"saved_turn", "state", "events", "hash"}; with a "hash" in the file the exit status
// says whether the state after the turn has it.
func resolveSavedTurn(path string, b []byte, stdout, stderr io.Writer) int {
	setup, sv, err := readSavedTurn(path, b)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if len(sv.Orders) != len(sv.State.Robots) {
		fmt.Fprintf(stderr, "rallyjudge resolve: %s: %d orders for %d robots (\"orders\": one per robot, in seat order)\n", path, len(sv.Orders), len(sv.State.Robots))
		return 2
	}
	ords := make([]adjudicator.Orders, len(sv.Orders))
	for i, p := range sv.Orders {
		ords[i] = p.Orders()
	}
	lent, err := adjudicator.ResolveLent(setup, sv.State, ords) // the log printed below, then released
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %s: %v\n", path, err)
		return 2
	}
	defer lent.Release()
	next, events := lent.Next, lent.Events
	stateJSON, err := json.Marshal(next)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	sum := sha256.Sum256(stateJSON)
	hash := hex.EncodeToString(sum[:])
	out, err := json.MarshalIndent(struct {
		SavedTurn string              `json:"saved_turn"`
		State     *adjudicator.State  `json:"state"`
		Events    []adjudicator.Event `json:"events"`
		Hash      string              `json:"hash"`
	}{filepath.Base(path), next, events, hash}, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	stdout.Write(append(out, '\n'))
	if sv.Hash != "" && !strings.EqualFold(sv.Hash, hash) {
		fmt.Fprintf(stderr, "rallyjudge resolve: %s: the state after the turn has hash %s, the file expects %s\n", path, hash, sv.Hash)
		return 1
	}
	return 0
}
