package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/roborally/demobots"
)

// cmdDemo plays a demo game through embedded mail servers: the embedded default.
func cmdDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	course := fs.String("course", "sprint", "shipped course to race on")
	seed := fs.Int64("seed", 1, "game seed: the same seed plays the same game")
	turns := fs.Int("turns", 20, "stop after this many turns if nobody has won")
	db := fs.String("db", "", "keep the game's database in this file (default: temporary)")
	saveMail := fs.String("save-mail", "", "write every mail rallyjudge sent to this directory as .eml")
	verbose := fs.Bool("v", false, "log what the judge does")
	options := fs.String("options", "", "the option deck: none, crash-burn (the default), armed-dangerous (armed) or both; given, each robot starts with one card (unless --variants picks a package) and the demo lists the cards used")
	variants := fs.String("variants", "", "variants, joined by commas: seed 001's option variants (standard-package, deluxe-package, turbo-wrenches, scavenger-hunt-1, scavenger-hunt-2, bio-bots), or with --rules 2023 seed 004's (lighter, less-deadly, less-spammy, dynamic-archive, act-fast)")
	play := fs.Bool("play", false, "keep a seat for you: join and play by mail against the demo's servers")
	rules := fs.String("rules", "postal", "the ruleset: postal, or 2023 (seed 004: own decks, energy, upgrades; course docking-run)")
	gameName := fs.String("game", games.RoboRally, "the game: "+strings.Join(games.Hosted().Names(), ", "))
	var settings kvFlag
	fs.Var(&settings, "set", "with --game crash-by-crash: a setting of the game, key=value (repeatable), as CREATE takes it: e.g. --set players=4")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rallyjudge demo [flags]\n\nPlays a game between bots through IMAP and SMTP servers it starts on 127.0.0.1 (README).\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rallyjudge demo: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *rules == "2023" && *course == "sprint" && !courseSet(fs) {
		*course = "" // the 2023 rules' default course (docking-run)
	}
	log := slog.New(slog.DiscardHandler)
	if *verbose {
		log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *play {
		// Enter on the terminal ends the demo too, not only an interrupt.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			var line string
			if _, err := fmt.Fscanln(os.Stdin, &line); err == nil || err.Error() == "unexpected newline" {
				cancel()
			}
		}()
		fmt.Fprintln(stdout, "press Enter (or Ctrl-C) here to stop the demo; the mails so far are saved with --save-mail")
	}
	if !strings.EqualFold(*gameName, games.RoboRally) {
		if *play || *options != "" || *variants != "" || courseSet(fs) || *rules != "postal" {
			fmt.Fprintf(stderr, "rallyjudge demo: --play, --options, --variants, --course and --rules are RoboRally's; for --game %s use --set key=value\n", *gameName)
			return 2
		}
		t := 0
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "turns" {
				t = *turns
			}
		})
		_, err := judge.RunHostedDemo(ctx, judge.HostedDemoOptions{Game: *gameName, Settings: settings.m, Seed: *seed, Turns: t,
			DB: *db, SaveMail: *saveMail, Out: stdout, Log: log})
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "rallyjudge demo: %s\n", strings.TrimPrefix(err.Error(), "demo: "))
			return 1
		}
		return 0
	}
	if len(settings.m) > 0 {
		// RoboRally's demo seats its four bots on the course its flags name; a --set
		// taken and not played (--set players=2 raced four robots) would mislead.
		others := slices.DeleteFunc(games.Hosted().Names(), func(n string) bool { return n == games.RoboRally })
		fmt.Fprintf(stderr, "rallyjudge demo: --set is for --game %s; RoboRally's demo takes --course, --options, --variants and --rules\n",
			strings.Join(others, "|"))
		return 2
	}
	// RoboRally's bots and lines (roborally/demobots) in the judge's demo.
	race := demobots.New(demobots.Options{Course: *course, Bot: demobots.Autopilot, OptionDeck: *options, Rules: *rules, Variants: *variants})
	_, err := judge.RunDemo(ctx, judge.DemoOptions{
		Game: race, Seed: *seed, Turns: *turns, DB: *db, SaveMail: *saveMail, Out: stdout, Log: log, Play: *play,
	})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "rallyjudge demo: %s\n", strings.TrimPrefix(err.Error(), "demo: ")) // not "demo: demo:"
		return 1
	}
	return 0 // Enter or an interrupt ends --play
}

// kvFlag is a repeatable key=value flag.
type kvFlag struct{ m map[string]string }

func (f *kvFlag) String() string { return "" }

func (f *kvFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("%q: want key=value", v)
	}
	if f.m == nil {
		f.m = map[string]string{}
	}
	f.m[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(val)
	return nil
}

// courseSet reports whether --course was given.
func courseSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "course" })
	return set
}
