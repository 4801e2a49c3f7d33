package judge

import (
	"context"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// Version is written into every mail's X-Rallyjudge header.
const Version = "rallyjudge/0.1"

// Judge holds what the daemon's loops share. Its methods are safe to call from one
// goroutine at a time per game; Serve runs them so.
type Judge struct {
	Store     *store.Store
	Templates *templates.Set
	Log       *slog.Logger
	// Now is the clock; tests set it.
	Now func() time.Time
	// NewSeed picks the seed of a game created without one (CREATE with no seed=, game
	// create with no --seed): RandomSeed by default. Never the clock: a player who knows
	// when a game was made could try every second near it against the hand dealt and then
	// know every deal and draw to come. Tests set it.
	NewSeed func() int64
	// Games are the games hosted behind the game seam (package game): games.Hosted by
	// default.
	Games game.Catalog
	// Sheets reads every mail's order sheet: its envelope, before the game is known
	// (game.MailReader; New: the catalogue's).
	Sheets game.MailReader
	// Address is the judge's own mail address: From of everything it sends.
	Address string
	Name    string
	// MaxMessageBytes bounds a mail rallyjudge will read (larger: a short reply).
	MaxMessageBytes int
	// AuthFailures wrong secrets from one address within AuthWindow silence it.
	AuthFailures int
	AuthWindow   time.Duration
	// IntakeCaughtUp, when set, is the moment up to which every mail the server received
	// has been handled (mail.Fetcher.CaughtUp; Serve sets it). A turn is resolved at its
	// deadline only once intake has caught up past the deadline, so that a sheet that
	// reached the mailbox in time counts whatever the backlog; after MaxIntakeWait past
	// the deadline the turn resolves anyway, with an error in the log.
	IntakeCaughtUp func() time.Time
	MaxIntakeWait  time.Duration
	// PokeIntake, when set, asks intake to look at the mailbox now (mail.Fetcher.Poke;
	// Serve sets it): a deadline that waits for intake asks for it, rather than waiting
	// for the next new mail or the end of an IDLE (imap.idle_timeout, 5 minutes).
	PokeIntake func()
	// resolveOnClock leaves the turns that a batch of mail completes to the clock (Tick),
	// which Serve wakes after each batch, rather than resolving them on intake's
	// goroutine: several judges on one database (shared.go).
	resolveOnClock bool
	// Replies bound the replies to mail (reflection.go).
	Replies ReplyLimits
	// Operator is the address told, once, when the database cannot be written or is
	// damaged while serving ("" for nobody; unwritable.go).
	Operator string
	// UnwritableExit is how long Serve waits for a database that cannot be written to
	// be writable again before it stops with ErrUnwritable; UnwritableProbe how often it
	// tries (unwritable.go).
	UnwritableExit, UnwritableProbe time.Duration
	// IntegrityCheck is how often the clock checks the database's pages while serving
	// (0: never; integritycheck.go); intake checks them before a batch too.
	IntegrityCheck time.Duration
	damaged        atomic.Bool  // the integrity check found damaged pages
	integrityAt    atomic.Int64 // when the clock last checked them (UnixNano)
	// soundAt is when the last check that found the pages sound ended (UnixNano, 0:
	// none yet), soundCost how long it took: intake's check waits on them
	// (intakeCheckDue).
	soundAt, soundCost atomic.Int64
	checksRun          atomic.Int64 // integrity checks begun (pagesSound)
	// aheadCheck is intake's check started ahead of its batch (checkAhead), closed when
	// it ends; nil when none runs
	aheadMu      sync.Mutex
	aheadCheck   chan struct{}
	lastBatch    atomic.Int64 // how long intake's last batch took to write (checkAhead)
	operatorMu   sync.Mutex
	operatorTold map[string]bool
	halt         halt // the integrity stop (unwritable.go)
	// intakeFrom is when intake began to read (Serve's start, or the end of an
	// integrity stop), in UnixNano on the judge's clock: MaxIntakeWait counts from it
	// when it is later than the deadline (intakePast).
	intakeFrom atomic.Int64
	// Retention says how long bookkeeping rows are kept (pruned by Tick).
	Retention store.Retention
	lastPrune time.Time

	// picturesInTx draws a turn's pictures inside its transaction at best compression,
	// as before issue 24 item 3: BenchmarkLastOrderToSMTP's "before" (tests only).
	picturesInTx bool

	// noCheckAhead, when set (tests only), has a batch's readers check no sheet ahead
	// of the writer (movesahead.go), as before issue 24 item 7's.
	noCheckAhead bool

	// crashAt, when set (tests only), is asked at each named point that follows a
	// commit; true stops the work there, as if the process had died (see stopAt).
	crashAt func(point string) bool

	sendState unrecorded
	held      heldSecrets // secrets whose mail is not sent yet (secretslots.go)
	scrub     scrubState  // whether the database log holds a received secret (secretslots.go)
	verified  secretCache
	seatFolds seatFoldCache // a hosted game's moves folded (txmemo.go)
	positions positionCache // the hosted games' positions decoded (movesahead.go)
	ready     readyWatch    // the games Tick looks at for a complete turn (readywatch.go)
	life      lifeWatch     // the games Lifecycle looks at (lifewatch.go)
}

// DefaultMaxMessageBytes is the largest mail the judge reads when its config does not
// say (limits.max_message_bytes).
const DefaultMaxMessageBytes = 256 << 10

// SizeText writes a mail size as the judge's replies do: whole KiB as KiB, else bytes.
func SizeText(n int) string { return sizeText(n) }

// New makes a Judge with defaults for everything optional.
func New(st *store.Store, address string, log *slog.Logger) (*Judge, error) {
	set, err := LoadTemplates("", games.Hosted())
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Judge{
		verified: secretCache{key: st.SecretKey()},
		Store:    st, Templates: set, Log: log, Now: time.Now, NewSeed: RandomSeed, Address: address, Name: "rallyjudge",
		MaxMessageBytes: DefaultMaxMessageBytes, AuthFailures: 5, AuthWindow: time.Hour, MaxIntakeWait: time.Hour, Replies: DefaultReplyLimits(),
		UnwritableExit: DefaultUnwritableExit, UnwritableProbe: 5 * time.Second, IntegrityCheck: DefaultIntegrityCheck,
		Retention: store.DefaultRetention(),
		Games:     games.Hosted(),
		Sheets:    game.MailReaderOf(games.Hosted()),
	}, nil
}

func (j *Judge) now() time.Time { return j.Now().UTC().Truncate(time.Second) }

// RandomSeed is a seed from the system's random source (crypto/rand).
func RandomSeed() int64 {
	var b [8]byte
	_, _ = cryptorand.Read(b[:]) // it never fails: since Go 1.24 it crashes the program instead
	return int64(binary.LittleEndian.Uint64(b[:]))
}

// newSeed is the seed of a game created without one (NewSeed).
func (j *Judge) newSeed() int64 {
	if j.NewSeed != nil {
		return j.NewSeed()
	}
	return RandomSeed()
}

// MaxSeats is the most seats a game may have on this judge (RoboRally's eight robots,
// the most of any game it hosts); each game's settings bound its own (Config.Seats).
const MaxSeats = 8

// GameSpec is a new game.
type GameSpec struct {
	Tag      string
	Name     string
	Seed     int64
	Deadline store.DeadlineRule
	Grace    time.Duration
	List     string // a mailing list for public reports; "" for none
	GMEmail  string
	Players  []PlayerSpec
	// Kind names the game (Judge.Games; "" the first, the default). Config is its
	// settings as the game encoded them; without it the game reads Settings, its own
	// CREATE key=values (Configure; none: its defaults).
	Kind     string
	Config   []byte
	Settings map[string]string
	// Options are the game's further settings (player limit, missed-turns limit,
	// reminders, the autopilot policy).
	Options Options
}

// PlayerSpec is a seat in a new game.
type PlayerSpec struct {
	Robot string
	Email string
}

var tagRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// CreateGame sets up and starts a game: the players with fresh secrets (returned, by
// robot, and mailed to each player with their first hand), turn 0's state, the first
// deadline. Everything commits in one transaction with the mail it produces. It is
// createGameIn (an open game with its players) followed by startGameIn (lifecycle.go);
// the CREATE/JOIN/START mail commands take the same two steps apart.
func (j *Judge) CreateGame(ctx context.Context, spec GameSpec) (map[string]string, error) {
	if len(spec.Players) == 0 || len(spec.Players) > MaxSeats {
		return nil, fmt.Errorf("game %s: %d players (want 1 to %d)", spec.Tag, len(spec.Players), MaxSeats)
	}
	var secrets map[string]string
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		g, sec, err := j.createGameIn(tx, spec)
		if err != nil {
			return err
		}
		secrets = sec
		return j.startGameIn(tx, g, secrets)
	})
	if err != nil {
		return nil, err
	}
	j.Log.Info("game created", "game", spec.Tag, "kind", spec.Kind, "players", len(spec.Players))
	return secrets, nil
}

// secretCache checks secrets. Keyed hashes (store.KeyedHash) cost microseconds. A bcrypt
// hash from before them costs ~70 ms, so: a secret not shaped like one of ours is refused
// without hashing; a bcrypt check passed is remembered, as a SHA-256 of the pair (no
// secret kept; bounded, emptied when full), and the hash is queued to be replaced by the
// keyed one (upgrades, written by Tick). Callers skip the slow check for senders already
// rate-limited (checkSlow false).
type secretCache struct {
	key []byte

	mu       sync.Mutex
	ok       map[[32]byte]bool
	upgrades map[string]string // bcrypt hash → keyed hash of the secret shown right
	slow     int               // bcrypt checks done (tests)
}

func (c *secretCache) check(hash, secret string) bool { return c.checkSlow(hash, secret, true) }

// checkSlow is check, refusing without a bcrypt check when allowSlow is false.
func (c *secretCache) checkSlow(hash, secret string, allowSlow bool) bool {
	if store.IsKeyedHash(hash) {
		return store.CheckKeyed(c.key, hash, secret)
	}
	if !store.SecretShaped(secret) {
		return false // cannot be right: not worth a bcrypt
	}
	key := sha256.Sum256([]byte(hash + "\x00" + secret))
	c.mu.Lock()
	hit := c.ok[key]
	c.mu.Unlock()
	if hit {
		return true
	}
	if !allowSlow {
		return false
	}
	c.mu.Lock()
	c.slow++
	c.mu.Unlock()
	if !store.CheckSecret(hash, secret) {
		return false
	}
	c.mu.Lock()
	if c.ok == nil || len(c.ok) >= 4096 {
		c.ok = map[[32]byte]bool{}
	}
	c.ok[key] = true
	if len(c.key) == 32 {
		if c.upgrades == nil {
			c.upgrades = map[string]string{}
		}
		c.upgrades[hash] = store.KeyedHash(c.key, secret)
	}
	c.mu.Unlock()
	return true
}

// upgradeHashes replaces the bcrypt hashes whose secret was shown right by keyed ones.
func (j *Judge) upgradeHashes(ctx context.Context) {
	j.verified.mu.Lock()
	ups := j.verified.upgrades
	j.verified.upgrades = nil
	j.verified.mu.Unlock()
	if len(ups) == 0 {
		return
	}
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		for old, keyed := range ups {
			if _, err := tx.ReplaceSecretHash(old, keyed); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		j.Log.Warn("replacing bcrypt secret hashes by keyed ones failed; tried again later", "err", err)
		j.verified.mu.Lock()
		if j.verified.upgrades == nil {
			j.verified.upgrades = ups
		}
		j.verified.mu.Unlock()
		return
	}
	j.Log.Info("secret hashes upgraded from bcrypt to keyed", "count", len(ups))
}

// newSecret makes a secret and its keyed hash.
func (j *Judge) newSecret() (plain, hash string, err error) {
	plain, err = store.NewSecret()
	if err != nil {
		return "", "", err
	}
	hash, err = j.Store.HashSecret(plain)
	return plain, hash, err
}

// CrashPoints are the named points that follow a commit, where a crash leaves a step
// half done: the crash test stops the judge at each and checks the next start (or tick)
// finishes what was left.
//
//	after-sheet-commit  a sheet is stored and acknowledged; the turn it completed is not resolved
//	after-turn-commit   a turn is resolved and its reports are in the outbox, none sent,
//	                    those with pictures awaiting them (reportpictures.go)
//	pictures-drawn      a turn's pictures are drawn and its reports finished, not yet stored
//	after-outbox-row    an outbox mail is due and about to be handed to SMTP
//	mid-send            the SMTP server accepted a mail; the judge has not recorded it as sent
var CrashPoints = []string{"after-sheet-commit", "after-turn-commit", "pictures-drawn", "after-outbox-row", "mid-send"}

// SetCrashHook installs a test hook asked at each of CrashPoints. It is for tests only
// (the binary installs it from RALLYJUDGE_TEST_CRASH_AT, see cmd/rallyjudge/crashhook.go);
// a hook that returns true makes the judge stop the work in hand there, as a crash would.
func (j *Judge) SetCrashHook(f func(point string) bool) { j.crashAt = f }

// stopAt reports whether a test asked the judge to stop at the named point, as a crash
// would (see CrashPoints).
func (j *Judge) stopAt(point string) bool {
	return j.crashAt != nil && j.crashAt(point)
}

// errRejected marks a message refused for a reason told to its sender (the reply is
// already enqueued); it is not an internal failure.
var errRejected = errors.New("rejected")

// domainOf is the part of the judge's address after @, for Message-IDs.
func (j *Judge) domainOf() string {
	if i := strings.LastIndexByte(j.Address, '@'); i >= 0 {
		return j.Address[i+1:]
	}
	return "rallyjudge.invalid"
}
