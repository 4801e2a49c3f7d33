package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/store"
)

// gameFlags are rallyjudge game's flags, for every operation (each uses some).
type gameFlags struct {
	DB      string
	Config  string
	Address string
	Game    string
	// create
	Kind                                                                                                       string // the game played (games.Hosted), "" for RoboRally
	Course, Name, Deadline, Grace, Missed, Reminders, List, OnMissedLimit, GM, Rules, Options, Tiles, Variants string
	Seed                                                                                                       int64
	Players, MissedLimit                                                                                       int
	// SeedSet is whether --seed was given: --seed 0 is the seed 0, as seed=0 by mail; left
	// out, the judge picks a random seed.
	SeedSet bool
	// the other operations
	Robot, Email, At, By, Key, Value, Text string
	// Set are further game settings for create, key=value each (--set press=none): every
	// key CREATE takes by mail, so a new setting needs no new flag.
	Set setFlags
}

// setFlags collects repeated --set key=value flags.
type setFlags []string

func (s *setFlags) String() string { return strings.Join(*s, " ") }

func (s *setFlags) Set(v string) error {
	k, _, ok := strings.Cut(v, "=")
	k = strings.ToLower(strings.TrimSpace(k))
	if !ok || k == "" {
		return fmt.Errorf("want key=value")
	}
	for _, old := range *s {
		if ok, _, _ := strings.Cut(old, "="); strings.ToLower(strings.TrimSpace(ok)) == k {
			return fmt.Errorf("key %s is given twice", k)
		}
	}
	*s = append(*s, v)
	return nil
}

// onceValue is a flag that takes one value: given twice, it is refused, not the last
// one kept silently (--game a --game b once created game b).
type onceValue struct {
	flag.Value
	set bool
}

func (o *onceValue) String() string {
	if o == nil || o.Value == nil { // the flag package asks a zero one for its default
		return ""
	}
	return o.Value.String()
}

func (o *onceValue) Set(v string) error {
	if o.set {
		return fmt.Errorf("given twice (it takes one value)")
	}
	o.set = true
	return o.Value.Set(v)
}

var gameOps = map[string]string{
	"create":    "create an open game: --game TAG --course NAME [--name --deadline 48h|'daily 18:00' --grace --missed powerdown|random|autopilot --players N --missed-limit N --on-missed-limit ask|remove --reminders 24h,2h|none --list ADDR --seed N --rules [postal|2023,]k=v,k=v --options none|crash-burn|armed-dangerous|both --variants deluxe-package,bio-bots,... --tiles 'X,Y:TOKEN ...' --gm ADDR --set key=value ...]",
	"start":     "deal turn 1 to the players who joined: --game TAG",
	"list":      "the open and running games",
	"status":    "the game now: --game TAG",
	"history":   "the game's turns: --game TAG",
	"deadline":  "set this turn's deadline: --game TAG --at 'YYYY-MM-DD HH:MM' (UTC)",
	"extend":    "move the deadline later: --game TAG --by 24h",
	"pause":     "stop the clock: --game TAG",
	"resume":    "start the clock again: --game TAG",
	"replace":   "give a robot to a new player: --game TAG --robot NAME --email ADDR",
	"kick":      "withdraw a player: --game TAG --robot NAME",
	"process":   "resolve the turn now: --game TAG",
	"rollback":  "undo the last turn: --game TAG",
	"set":       "change an option: --game TAG --key KEY --value VALUE",
	"broadcast": "mail every player: --game TAG --text TEXT",
	"add-gm":    "make ADDR a game master (of --game, or of the server), secret mailed: --email ADDR [--game TAG]",
}

func gameUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: rallyjudge game OPERATION --db FILE (--address JUDGE@ADDR | --config FILE) [flags]\n\n"+
		"The game master's operations on the server; mails they produce go into the outbox for the\n"+
		"running daemon to send (docs/commands.md).\n\noperations:")
	ops := make([]string, 0, len(gameOps))
	for o := range gameOps {
		ops = append(ops, o)
	}
	sort.Strings(ops)
	for _, o := range ops {
		fmt.Fprintf(w, "  %-10s %s\n", o, gameOps[o])
	}
	fmt.Fprintf(w, "\nflags of every operation:\n"+
		"  --db FILE           the judge's SQLite database (made if it does not exist)\n"+
		"  --address ADDR      the judge's own mail address, From: of the mails it makes\n"+
		"  --config FILE       the serve config, for both (rallyjudge init writes one);\n"+
		"                      without --config or --db: $RALLYJUDGE_CONFIG, else %s\n"+
		"rallyjudge game OPERATION --help lists every flag the operations take.\n", systemConfig)
}

// parseGameFlags reads an operation's flags.
func parseGameFlags(op string, args []string, stderr io.Writer) (gameFlags, error) {
	var f gameFlags
	fs := flag.NewFlagSet("game "+op, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.DB, "db", "", "the SQLite database")
	fs.StringVar(&f.Config, "config", "", "the serve config file (for the database and judge address)")
	fs.StringVar(&f.Address, "address", "", "the judge's mail address, one plain local@domain (From of the mails)")
	fs.StringVar(&f.Game, "game", "", "the game's tag")
	fs.StringVar(&f.Course, "course", "", "create: the course (RoboRally)")
	fs.StringVar(&f.Kind, "kind", "", "create: the game played: "+strings.Join(games.Hosted().Names(), ", ")+" (default roborally); its own settings go as --set key=value")
	fs.StringVar(&f.Name, "name", "", "create: the game's name")
	fs.StringVar(&f.Deadline, "deadline", "", "create: the deadline rule (48h, daily 18:00)")
	fs.StringVar(&f.Grace, "grace", "", "create: grace after the deadline")
	fs.StringVar(&f.Missed, "missed", "", "create: missed-orders policy")
	fs.StringVar(&f.Reminders, "reminders", "", "create: reminder lead times")
	fs.StringVar(&f.List, "list", "", "create: the mailing list's address (one plain local@domain) that gets the public part of every report")
	fs.StringVar(&f.OnMissedLimit, "on-missed-limit", "", "create: ask or remove")
	fs.StringVar(&f.GM, "gm", "", "create: the game master's address, one plain local@domain (a secret is mailed to it)")
	fs.StringVar(&f.Rules, "rules", "", "create: the ruleset (postal, the default, or 2023) and/or rules settings k=v, joined by commas (each key once)")
	fs.StringVar(&f.Tiles, "tiles", "", "create: Crash & Burn element tiles laid for this game, 'X,Y:TOKEN X,Y:TOKEN' (docs/boards.md)")
	fs.StringVar(&f.Options, "options", "", "create: the option deck: none, crash-burn (default), armed-dangerous or both")
	fs.StringVar(&f.Variants, "variants", "", "create: variants, joined by commas: seed 001's option variants (standard-package, deluxe-package, turbo-wrenches, scavenger-hunt-1, scavenger-hunt-2, bio-bots), or with --rules 2023 seed 004's (lighter, less-deadly, less-spammy, dynamic-archive, act-fast)")
	fs.Int64Var(&f.Seed, "seed", 0, "create: the seed, any 64-bit integer, negative too, as CREATE seed=N by mail (left out: a random one)")
	fs.IntVar(&f.Players, "players", 0, "create: the most players")
	fs.IntVar(&f.MissedLimit, "missed-limit", 0, "create: missed turns in a row before on-missed-limit, 0 (never) to 99")
	fs.StringVar(&f.Robot, "robot", "", "replace, kick: the robot")
	fs.StringVar(&f.Email, "email", "", "replace, add-gm: the address")
	fs.StringVar(&f.At, "at", "", "deadline: YYYY-MM-DD HH:MM (UTC)")
	fs.StringVar(&f.By, "by", "", "extend: a duration")
	fs.StringVar(&f.Key, "key", "", "set: the option")
	fs.StringVar(&f.Value, "value", "", "set: its value")
	fs.StringVar(&f.Text, "text", "", "broadcast: the message")
	fs.Var(&f.Set, "set", "create: a game setting, key=value (repeatable, each key once): observers, press, whogame, absence, absence-cap, gm-copies, ...")
	fs.VisitAll(func(fl *flag.Flag) {
		if fl.Name != "set" { // --set is the one repeatable flag
			fl.Value = &onceValue{Value: fl.Value}
		}
	})
	fs.Usage = func() {
		fs.VisitAll(func(fl *flag.Flag) { // the flags as they are, for their types and defaults
			if o, ok := fl.Value.(*onceValue); ok {
				fl.Value = o.Value
			}
		})
		fmt.Fprintf(stderr, "usage: rallyjudge game %s (--config FILE | --db FILE --address JUDGE@ADDR) [flags]\n  %s\n\n"+
			"Without --config or --db the config is $RALLYJUDGE_CONFIG, else /etc/rallyjudge/rallyjudge.yaml.\n\nflags (of every operation; the prefix says which use each):\n", op, gameOps[op])
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	fs.Visit(func(fl *flag.Flag) { f.SeedSet = f.SeedSet || fl.Name == "seed" })
	return f, nil
}

// command turns the flags into the judge's command for op.
func (f gameFlags) command(op string) (judge.Command, error) {
	need := func(names ...string) error {
		vals := map[string]string{"game": f.Game, "course": f.Course, "robot": f.Robot, "email": f.Email, "at": f.At, "by": f.By, "key": f.Key, "value": f.Value, "text": f.Text}
		for _, n := range names {
			if vals[n] == "" {
				return fmt.Errorf("%s needs --%s", op, n)
			}
		}
		return nil
	}
	c := judge.Command{Verb: strings.ToUpper(op)}
	var err error
	switch op {
	case "list":
	case "start", "status", "history", "pause", "resume", "process", "rollback":
		err = need("game")
	case "create":
		if err = need("game"); err != nil {
			return c, err
		}
		if f.Kind == "" || strings.EqualFold(f.Kind, games.RoboRally) {
			if err = need("course"); err != nil {
				return c, err
			}
		}
		c.Args = []string{f.Game}
		// The settings go as pairs (judge.Command.KV), never re-read from quoted words.
		flagOf := map[string]string{}
		add := func(flagName, k, v string) {
			if v != "" {
				c.KV = append(c.KV, [2]string{k, v})
				flagOf[strings.ToLower(k)] = flagName
			}
		}
		add("--kind", "game", f.Kind)
		add("--course", "course", f.Course)
		add("--name", "name", f.Name)
		add("--deadline", "deadline", f.Deadline)
		add("--grace", "grace", f.Grace)
		add("--missed", "missed", f.Missed)
		add("--reminders", "reminders", f.Reminders)
		add("--list", "list", f.List)
		add("--on-missed-limit", "on-missed-limit", f.OnMissedLimit)
		add("--gm", "gm", f.GM)
		if f.SeedSet {
			add("--seed", "seed", strconv.FormatInt(f.Seed, 10))
		}
		if f.Players != 0 {
			add("--players", "players", strconv.Itoa(f.Players))
		}
		if f.MissedLimit != 0 {
			add("--missed-limit", "missed-limit", strconv.Itoa(f.MissedLimit))
		}
		add("--options", "options", f.Options)
		add("--variants", "variants", f.Variants)
		add("--tiles", "rules.tiles", f.Tiles) // the rules setting tiles (adjudicator/tiles.go)
		for _, kv := range f.Set {
			k, v, _ := strings.Cut(kv, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			if prev, ok := flagOf[k]; ok {
				return c, fmt.Errorf("--set %s: %s is given by %s too", k, k, prev)
			}
			add("--set", k, v)
		}
		if f.Rules != "" {
			ruleset := false
			for _, kv := range strings.Split(f.Rules, ",") {
				kv = strings.TrimSpace(kv)
				k, v, isKV := strings.Cut(kv, "=")
				if !isKV {
					if ruleset {
						return c, fmt.Errorf("--rules: the ruleset is given twice")
					}
					ruleset = true
					k, v = "", kv // the ruleset: postal or 2023
				} else if k = strings.TrimSpace(k); k == "" {
					return c, fmt.Errorf("--rules %q: want k=v", kv)
				} else {
					k = "." + k
				}
				if prev, ok := flagOf[strings.ToLower("rules"+k)]; ok {
					return c, fmt.Errorf("--rules: rules%s is given twice (or by %s too)", k, prev)
				}
				add("--rules", "rules"+k, v)
			}
		}
		// Each setting is checked here by the judge's own check (one place per check),
		// so that a bad flag is a usage error naming the flag, before the database opens.
		if _, err := judge.KVMap(c.KV); err != nil { // an alias: --players with --set max-players
			return c, fmt.Errorf("%s", strings.TrimSuffix(err.Error(), "."))
		}
		for _, p := range c.KV {
			var err error
			switch p[0] {
			case "gm":
				err = judge.CheckAddress("gm", p[1])
			default:
				err = judge.CheckSetting(p[0], p[1])
			}
			if err != nil {
				return c, fmt.Errorf("%s: %v", flagOf[strings.ToLower(p[0])], strings.TrimSuffix(err.Error(), "."))
			}
		}
	case "deadline":
		err = need("game", "at")
		c.Args = strings.Fields(f.At)
	case "extend":
		err = need("game", "by")
		c.Args = []string{f.By}
	case "replace":
		err = need("game", "robot", "email")
		c.Args = []string{f.Robot, f.Email}
	case "kick":
		err = need("game", "robot")
		c.Args = []string{f.Robot}
	case "set":
		err = need("game", "key", "value")
		c.Args = append([]string{f.Key}, strings.Fields(f.Value)...)
	case "broadcast":
		err = need("game", "text")
		c.Text = f.Text
	default:
		return c, fmt.Errorf("unknown operation %q", op)
	}
	return c, err
}

// cmdGame runs a game master's operation on the database.
func cmdGame(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		gameUsage(stderr)
		return 2
	}
	op := args[0]
	if _, ok := gameOps[op]; !ok {
		fmt.Fprintf(stderr, "rallyjudge game: unknown operation %q\n", op)
		gameUsage(stderr)
		return 2
	}
	f, err := parseGameFlags(op, args[1:], stderr)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
		return 2
	}
	if f.Config == "" && f.DB == "" {
		f.Config = defaultConfig()
	}
	var cfg judge.Config
	if f.Config != "" {
		if cfg, err = judge.LoadConfig(f.Config); err != nil {
			fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
			return 2
		}
		if f.DB == "" {
			f.DB = cfg.Database
		}
		if f.Address == "" {
			f.Address = cfg.JudgeAddress
		}
	}
	if f.DB == "" || f.Address == "" {
		fmt.Fprintf(stderr, "rallyjudge game %s: needs --config FILE (or RALLYJUDGE_CONFIG, or %s), or --db FILE and --address JUDGE@ADDR; `rallyjudge init` writes a config file to start from\n", op, systemConfig)
		return 2
	}
	if err := judge.CheckAddress("--address", f.Address); err != nil {
		fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
		return 2
	}
	if f.Email != "" && !(op == "replace" && strings.EqualFold(f.Email, "standby")) {
		if err := judge.CheckAddress("--email", f.Email); err != nil {
			fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
			return 2
		}
	}
	var c judge.Command
	if op != "add-gm" {
		if c, err = f.command(op); err != nil {
			fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
			return 2
		}
	} else if f.Email == "" {
		fmt.Fprintf(stderr, "rallyjudge game add-gm: needs --email\n")
		return 2
	}
	st, err := store.Open(f.DB)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
		return 1
	}
	defer st.Close()
	j, err := judge.New(st, f.Address, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
		return 1
	}
	// The mails made here are the daemon's mails: the same From name and the game
	// master's templates (the bug: they came from "rallyjudge" whatever judge_name said).
	if cfg.JudgeName != "" {
		j.Name = cfg.JudgeName
	}
	if cfg.TemplatesDir != "" {
		if j.Templates, err = judge.LoadTemplates(cfg.TemplatesDir, j.Games); err != nil {
			fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
			return 2
		}
	}
	ctx := context.Background()
	// the games stored before the seam, as the daemon adopts them at start (a game that
	// cannot be read is logged and stays as it was)
	_, _ = j.AdoptLegacy(ctx)
	if op == "add-gm" {
		if err := j.AddGM(ctx, f.Game, f.Email); err != nil {
			fmt.Fprintf(stderr, "rallyjudge game add-gm: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s is a game master; the secret is in the outbox, mailed to that address.\n", f.Email)
		return 0
	}
	out, err := j.RunCommand(ctx, f.Game, c)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge game %s: %v\n", op, err)
		return 1
	}
	fmt.Fprint(stdout, out)
	if strings.HasPrefix(out, "Not done:") {
		return 1
	}
	return 0
}

// systemConfig is where the guide installs the serve config (docs/gamemasters.md).
const systemConfig = "/etc/rallyjudge/rallyjudge.yaml"

// defaultConfig is the config `rallyjudge game` reads when given neither --config nor
// --db: $RALLYJUDGE_CONFIG, else the system config when it exists and can be read.
func defaultConfig() string {
	if c := os.Getenv("RALLYJUDGE_CONFIG"); c != "" {
		return c
	}
	if f, err := os.Open(systemConfig); err == nil {
		f.Close()
		return systemConfig
	}
	return ""
}
