package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// cmdServe runs the judge against a real mailbox until SIGTERM or SIGINT; the message
// or turn in hand is finished first.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the config file (YAML; see docs/config.md)")
	check := fs.Bool("check", false, "check the config, the passwords it names and the templates, and exit: no mail is read or sent, no database opened")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rallyjudge serve --config FILE [--check]\n\nRuns the judge on the mailbox the config names until SIGTERM or SIGINT; a config\nwith problems stops it at once, every problem listed (docs/config.md). --check only\nchecks the config, its passwords and templates, and exits.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: rallyjudge serve --config FILE [--check]")
		return 2
	}
	cfg, err := judge.LoadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge serve: %v\n", err)
		return 2
	}
	if *check {
		// docs/gamemasters.md: "Check a config without starting"
		if err := checkServe(cfg, os.Getenv); err != nil {
			fmt.Fprintf(stderr, "rallyjudge serve: config %s: %v\n", *cfgPath, err)
			return 1
		}
		fmt.Fprintf(stdout, "config %s: ok: judge %s, IMAP %s (%s, %s, mailbox %s), SMTP %s (%s), database %s\n",
			*cfgPath, cfg.JudgeAddress, cfg.IMAP.Address, cfg.IMAP.TLS, cfg.IMAP.Username, cfg.IMAP.Mailbox,
			cfg.SMTP.Address, cfg.SMTP.TLS, cfg.Database)
		return 0
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, cfg, log); err != nil {
		log.Error("rallyjudge serve stopped", "err", err)
		return 1
	}
	return 0
}

// checkServe checks what serve reads before it starts, without the network and without
// opening the database: the passwords the config names, the template overrides, and
// that the database's directory exists.
func checkServe(cfg judge.Config, getenv func(string) string) error {
	var problems []string
	if _, err := judge.Secret(cfg.IMAP.PasswordEnv, cfg.IMAP.PasswordFile, getenv); err != nil {
		problems = append(problems, "imap password: "+err.Error())
	}
	if _, err := judge.Secret(cfg.SMTP.PasswordEnv, cfg.SMTP.PasswordFile, getenv); err != nil {
		problems = append(problems, "smtp password: "+err.Error())
	}
	if cfg.TemplatesDir != "" {
		if _, err := judge.LoadTemplates(cfg.TemplatesDir, games.Hosted()); err != nil {
			problems = append(problems, "templates_dir: "+err.Error())
		}
	}
	if store.IsPostgres(cfg.Database) {
		if _, err := judge.Secret(cfg.DatabasePasswordEnv, cfg.DatabasePasswordFile, getenv); err != nil {
			problems = append(problems, "database password: "+err.Error())
		}
	} else if fi, err := os.Stat(filepath.Dir(cfg.Database)); err != nil || !fi.IsDir() {
		problems = append(problems, fmt.Sprintf("database: the directory %s does not exist", filepath.Dir(cfg.Database)))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}

func serve(ctx context.Context, cfg judge.Config, log *slog.Logger) (err error) {
	defer judge.ServeRuntime(os.Getenv)() // the collector's settings for a daemon (judge/runtime.go)
	imapPW, err := judge.Secret(cfg.IMAP.PasswordEnv, cfg.IMAP.PasswordFile, os.Getenv)
	if err != nil {
		return fmt.Errorf("imap password: %w", err)
	}
	smtpPW, err := judge.Secret(cfg.SMTP.PasswordEnv, cfg.SMTP.PasswordFile, os.Getenv)
	if err != nil {
		return fmt.Errorf("smtp password: %w", err)
	}
	dbPW, err := judge.Secret(cfg.DatabasePasswordEnv, cfg.DatabasePasswordFile, os.Getenv)
	if err != nil {
		return fmt.Errorf("database password: %w", err)
	}
	// one daemon per database: a second would send every mail again
	if !store.IsPostgres(cfg.Database) {
		lock, err := store.LockDaemon(cfg.Database)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	opts := store.Options{Retry: store.RetryPolicy{MaxAttempts: cfg.Limits.MaxAttempts}, Password: dbPW}
	// On PostgreSQL several judges may serve the database together, sharing the work by
	// its claims and locks (judge/shared.go); a judge that is gone loses them within the
	// lease.
	shared := store.IsPostgres(cfg.Database)
	if shared {
		opts.Lease = cfg.Lease.D()
	}
	st, err := store.OpenWith(cfg.Database, opts)
	if err != nil {
		return err
	}
	defer st.Close()
	// refuse a database with damaged pages or one that cannot be written, before any mail is read
	if err := st.CheckServing(ctx, time.Now().UTC(), fmt.Sprintf("rallyjudge serve, pid %d", os.Getpid())); err != nil {
		return err
	}
	j, err := judge.New(st, cfg.JudgeAddress, log)
	if err != nil {
		return err
	}
	j.Name = cfg.JudgeName
	hook, err := crashHook(os.Getenv, os.Stderr)
	if err != nil {
		return err
	}
	if hook != nil {
		j.SetCrashHook(hook)
	}
	j.MaxMessageBytes = cfg.Limits.MaxMessageBytes
	j.Operator = cfg.OperatorAddress
	if cfg.Limits.UnwritableExit > 0 {
		j.UnwritableExit = cfg.Limits.UnwritableExit.D()
	}
	j.IntegrityCheck = cfg.Limits.IntegrityCheck.D()
	j.AuthFailures = cfg.Limits.AuthFailures
	j.AuthWindow = cfg.Limits.AuthWindow.D()
	if cfg.TemplatesDir != "" {
		if j.Templates, err = judge.LoadTemplates(cfg.TemplatesDir, j.Games); err != nil {
			return err
		}
	}
	newFetcher := func(since mail.Position, onCaughtUp func(time.Time)) (*mail.Fetcher, error) {
		return mail.NewFetcher(mail.FetcherConfig{
			Addr: cfg.IMAP.Address, TLS: cfg.IMAP.TLS, InsecureSkipVerify: cfg.IMAP.InsecureSkipVerify,
			Username: cfg.IMAP.Username, Password: imapPW, Mailbox: cfg.IMAP.Mailbox,
			After: cfg.IMAP.After, MoveTo: cfg.IMAP.DoneFolder, Since: since,
			IdleTimeout: cfg.IMAP.IdleTimeout.D(), PollInterval: cfg.IMAP.PollInterval.D(), OpTimeout: cfg.IMAP.Timeout.D(),
			MaxFetchSize: int64(cfg.Limits.MaxMessageBytes) + 1, Logger: log, OnCaughtUp: onCaughtUp,
		})
	}
	loops := judge.Loops{Mailbox: cfg.IMAP.Mailbox, Tick: cfg.TickInterval.D(), Lease: cfg.Lease.D()}
	if shared {
		// the mailbox is read by the judge holding the intake claim, from the position
		// recorded when it takes it
		loops.NewFetcher = newFetcher
	} else {
		since, err := j.LoadPosition(ctx, cfg.IMAP.Mailbox)
		if err != nil {
			return err
		}
		if loops.Fetcher, err = newFetcher(since, nil); err != nil {
			return err
		}
	}
	sender, err := mail.NewSender(mail.SenderConfig{
		Addr: cfg.SMTP.Address, TLS: cfg.SMTP.TLS, InsecureSkipVerify: cfg.SMTP.InsecureSkipVerify,
		Username: cfg.SMTP.Username, Password: smtpPW, HeloName: cfg.SMTP.Helo, Timeout: cfg.SMTP.Timeout.D(), Logger: log,
	})
	if err != nil {
		return err
	}
	log.Info("rallyjudge serving", "imap", cfg.IMAP.Address, "mailbox", cfg.IMAP.Mailbox, "smtp", cfg.SMTP.Address, "db", cfg.Database)
	loops.Sender = sender
	return j.Serve(ctx, loops)
}
