package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	"github.com/rallyjudge/rallyjudge/judge"
)

const importUsage = `usage: rallyjudge import ARCHIVE (--config FILE | --db FILE [--address JUDGE@ADDR])
                         [--tag NEW] [--from N] [--player ROBOT=EMAIL ...] [--name NAME]

Makes a new game from an archive (docs/archive.md): to continue it, or to fork it from
turn N for a "what if". The archive must replay exactly. Turns 0 to N are kept and the
game goes on at turn N+1 with fresh secrets: players given with --player are mailed
theirs (the welcome mail, sent by the running judge); the other robots get placeholder
addresses (seatN@unassigned.invalid) until a game master sets them.
  --tag NEW        the new game's tag (default: the archive's tag with -fork-N)
  --from N         the last turn kept (default: the archive's last turn)
  --player R=E     robot R is played from address E (repeatable)
  --config FILE    the serve config: the database, and the judge_address, judge_name and
                   templates of the welcome mails (default: $RALLYJUDGE_CONFIG, else
                   /etc/rallyjudge/rallyjudge.yaml if it exists)
  --db FILE        the database (instead of the config's)
  --address A      the judge's own address, From: of the welcome mails (instead of the
                   config's); --player needs one or the other
Exit 0: imported; 1: the archive or database is unusable, or the import was refused; 2: usage.`

type playerFlags map[string]string

func (p playerFlags) String() string { return "" }

func (p playerFlags) Set(v string) error {
	robot, email, ok := strings.Cut(v, "=")
	if !ok || robot == "" || !strings.Contains(email, "@") {
		return fmt.Errorf("--player %q: want ROBOT=EMAIL", v)
	}
	p[robot] = email
	return nil
}

// cmdImport makes a game from an archive.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	db := fs.String("db", "", "the judge's database file")
	tag := fs.String("tag", "", "the new game's tag")
	name := fs.String("name", "", "the new game's name")
	from := fs.Int("from", -1, "the last turn kept")
	// -1 (the default) means the archive's last turn; any other negative is a mistake.
	address := fs.String("address", "", "the judge's mail address")
	config := fs.String("config", "", "the serve config file")
	players := playerFlags{}
	fs.Var(players, "player", "ROBOT=EMAIL")
	pos, err := parseInterleaved(fs, args)
	if err == nil && len(pos) != 1 {
		err = fmt.Errorf("want exactly one ARCHIVE, got %d", len(pos))
	} else if err == nil && *from < -1 {
		err = fmt.Errorf("--from %d: want a turn, 0 or more", *from)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge import: %v\n%s\n", err, importUsage)
		return 2
	}
	// The welcome mails are the daemon's: From its address and name, in its templates
	// (they were From judge@localhost, which no SMTP server takes, when --address was left out).
	if *config == "" {
		*config = defaultConfig()
	}
	var cfg judge.Config
	if *config != "" {
		if cfg, err = judge.LoadConfig(*config); err != nil {
			fmt.Fprintf(stderr, "rallyjudge import: %v\n", err)
			return 2
		}
		if *db == "" {
			*db = cfg.Database
		}
		if *address == "" {
			*address = cfg.JudgeAddress
		}
	}
	if *db == "" {
		fmt.Fprintf(stderr, "rallyjudge import: needs --db FILE or --config FILE (or RALLYJUDGE_CONFIG, or %s)\n%s\n", systemConfig, importUsage)
		return 2
	}
	if *address == "" {
		if len(players) > 0 {
			fmt.Fprintf(stderr, "rallyjudge import: --player mails a welcome: give --address JUDGE@ADDR (the judge's address) or --config FILE\n")
			return 2
		}
		*address = "judge@localhost" // no mail is made
	}
	a, err := readArchive(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge import: %v\n", err)
		return 1
	}
	keep := *from
	if keep < 0 {
		keep = a.Last()
	}
	if *tag == "" {
		*tag = fmt.Sprintf("%s-fork-%d", a.Tag(), keep)
	}
	st, err := openExisting(*db)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge import: %v\n", err)
		return 1
	}
	defer st.Close()
	j, err := judge.New(st, *address, slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge import: %v\n", err)
		return 1
	}
	if cfg.JudgeName != "" {
		j.Name = cfg.JudgeName
	}
	if cfg.TemplatesDir != "" {
		if j.Templates, err = judge.LoadTemplates(cfg.TemplatesDir, j.Games); err != nil {
			fmt.Fprintf(stderr, "rallyjudge import: %v\n", err)
			return 2
		}
	}
	secrets, err := j.ImportGame(context.Background(), a, judge.ImportSpec{Tag: *tag, Name: *name, From: *from, Emails: players})
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge import: %s: %v\n", pos[0], err)
		return 1
	}
	fmt.Fprintf(stdout, "imported %s as game %s: turns 0-%d, next turn %d\n", pos[0], *tag, keep, keep+1)
	robots := make([]string, 0, len(secrets))
	for r := range secrets {
		robots = append(robots, r)
	}
	sort.Strings(robots)
	for _, r := range robots { // the secrets themselves are never printed
		if e := players[r]; e != "" {
			fmt.Fprintf(stdout, "  %s: %s (secret mailed)\n", r, e)
		} else {
			fmt.Fprintf(stdout, "  %s: no player yet (placeholder address)\n", r)
		}
	}
	return 0
}
