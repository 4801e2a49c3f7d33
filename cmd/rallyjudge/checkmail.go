package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
)

// checkMail: rallyjudge check --mail FILE.eml [--state FILE] [--robot NAME]. It reads a
// raw mail exactly as the judge does (judge.Read: MIME, charset, format=flowed, quotes,
// signatures, markers), prints what it found, the sheet with the lines it came from in
// the mail, and the sheet's problems; with --state it validates the sheet against that
// game and prints the forecast. It answers a game master's "why was my mail refused".
// Exit status as check: 0 read (and valid), 1 not accepted, 2 unreadable or bad usage.
// It does not check the secret or the sender: it has no game database.
func checkMail(cfg checkConfig, stdout, stderr io.Writer) int {
	// The judge's own limit: the config's, or the judge's default without one (the
	// bug: check read up to 1 MiB while the judge refuses a mail over 256 KiB).
	maxBytes, from := judge.DefaultMaxMessageBytes, "the judge's default"
	if cfg.config != "" {
		c, err := judge.LoadConfig(cfg.config)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
			return 2
		}
		maxBytes, from = c.Limits.MaxMessageBytes, cfg.config+"'s limits.max_message_bytes"
	}
	fi, err := os.Stat(cfg.mail)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
		return 2
	}
	if fi.Size() > int64(maxBytes) { // the real size, not how much was read
		fmt.Fprintf(stderr, "rallyjudge check: %s: %s, larger than the judge reads (%s, %s): the judge answers that the mail is too large and does not read it\n",
			cfg.mail, mailSize(fi.Size()), judge.SizeText(maxBytes), from)
		return 2
	}
	lim := mail.DefaultLimits()
	lim.MaxSize = int64(maxBytes)
	raw, err := readCapped(cfg.mail, lim.MaxSize+1)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
		return 2
	}
	msg, err := mail.ExtractWithLimits(raw, lim)
	if err != nil {
		if errors.Is(err, mail.ErrLimit) {
			fmt.Fprintf(stderr, "rallyjudge check: %s: %v (the judge answers that the mail is too large)\n", cfg.mail, err)
		} else {
			fmt.Fprintf(stderr, "rallyjudge check: %s: %v (the judge does not answer it)\n", cfg.mail, err)
		}
		return 2
	}
	if strings.TrimSpace(msg.From) == "" {
		fmt.Fprintf(stderr, "rallyjudge check: %s: no From address (the judge does not answer it)\n", cfg.mail)
		return 2
	}
	if auto, why := mail.IsAutomatic(msg); auto {
		fmt.Fprintf(stdout, "from: %s\nsubject: %s\nan automatic mail (%s): the judge does not answer it\n", msg.From, msg.Subject, why)
		return 1
	}
	rd := judge.Read(msg, game.MailReaderOf(games.Hosted()))
	ok := rd.Describe(stdout)
	if rd.Sheet == nil {
		return 0 // commands only: what they do depends on the game's database
	}
	if !cfg.checking() {
		if !ok {
			return 1
		}
		return 0
	}
	setup, st, against, err := cfg.against(rd.Game())
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
		return 2
	}
	robot := cfg.robot
	if robot == "" {
		robot = rd.Sheet.Seat
	}
	if robot == "" {
		fmt.Fprintf(stderr, "rallyjudge check: the sheet names no robot; give --robot NAME\n")
		return 2
	}
	// RoboRally's sheet, read again as the judge's reader read it (its problems name
	// the lines of the mail)
	parse := orders.Parse
	if rd.YAML {
		parse = orders.ParseYAML
	}
	read, _ := parse([]byte(rd.SheetText))
	if read == nil {
		read = &orders.Sheet{}
	}
	sheet := *read
	if sheet.Turn == 0 {
		sheet.Turn = st.Turn // as the judge: a sheet without a turn line is for the turn being played
	}
	rep := orders.Validate(setup, st, robot, &sheet)
	lines, n := rd.Problems(roborally.SheetProblems(rep.Errors()))
	fmt.Fprintf(stdout, "checked against %s, robot %s, turn %d:\n", against, robot, st.Turn)
	for _, l := range lines {
		fmt.Fprintf(stdout, "  %s\n", l)
	}
	for _, w := range rep.Warnings() {
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	if n > 0 {
		fmt.Fprintf(stdout, "not accepted: %d error(s)\n", n)
		return 1
	}
	fmt.Fprintln(stdout, "valid")
	idx := -1
	for i := range st.Robots {
		if strings.EqualFold(st.Robots[i].Name, robot) {
			idx = i
		}
	}
	if sheet.HasProgram() && idx >= 0 && st.Robots[idx].Power != adjudicator.PowerDown {
		f, err := orders.Forecast(setup, st, robot, &sheet)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, f.String())
	}
	return 0
}

// mailSize is a file's size as a person reads it: "7.0 MB (7340032 bytes)".
func mailSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/(1<<10), n)
	}
	return fmt.Sprintf("%d bytes", n)
}
