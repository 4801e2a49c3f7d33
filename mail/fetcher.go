package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Position is where a mailbox was read up to: the last UID handled under a UIDVALIDITY.
type Position struct {
	UIDValidity uint32
	UID         uint32
}

// Handler receives one raw message. It must store the message durably before returning nil;
// only then does the Fetcher flag or move it on the server. An error leaves the message as it
// is, to be offered again later. The same message may be offered again after a crash or a
// UIDVALIDITY change, so the handler must be idempotent (by UIDVALIDITY/UID and Message-ID).
type Handler func(ctx context.Context, uidvalidity, uid uint32, raw []byte) error

// FetcherConfig says how to reach and treat the mailbox.
type FetcherConfig struct {
	Addr               string // host:port
	TLS                string // "imaps" (implicit TLS), "starttls" or "plain"
	InsecureSkipVerify bool   // tests with self-signed certificates only
	ServerName         string // for certificate checks; default: the host of Addr
	Username, Password string
	Mailbox            string // default "INBOX"
	// After is what happens to a handled message: "flag" sets \Seen and Keyword; "move" moves it
	// to MoveTo (created if missing).
	After   string
	Keyword string // default "$RallyjudgeDone"
	MoveTo  string
	// Since is the last position the caller stored; a different UIDVALIDITY on the server means
	// the mailbox was rebuilt and everything not yet marked done is offered again.
	Since Position
	// IdleTimeout bounds one IDLE; then the mailbox is checked anyway (never IDLE alone). When
	// the server has no IDLE, PollInterval is the time between checks. Defaults 2 min and 1 min.
	IdleTimeout  time.Duration
	PollInterval time.Duration
	// Reconnect backoff after an error: MinBackoff doubling up to MaxBackoff (1 s, 5 min).
	MinBackoff, MaxBackoff time.Duration
	// MaxFetchSize: larger messages are fetched only up to this many bytes (the handler sees the
	// truncated raw and its size check will refuse it). Default 32 MiB.
	MaxFetchSize int64
	// BatchBytes bounds the bytes fetched in one FETCH (default 8 MiB); BatchCount the messages
	// (default 100).
	BatchBytes int64
	BatchCount int
	Logger     *slog.Logger
}

// Fetcher reads new messages from one IMAP mailbox. Use Run.
type Fetcher struct {
	cfg  FetcherConfig
	log  *slog.Logger
	poke chan struct{}

	mu      sync.Mutex
	pos     Position
	kwOK    bool            // the selected mailbox keeps custom keywords (else \Seen marks done)
	pending map[uint32]bool // handled, not yet flagged or moved (under pos.UIDValidity)
	retry   map[uint32]bool // handler failed; offered again at the next check
}

// NewFetcher checks the configuration.
func NewFetcher(cfg FetcherConfig) (*Fetcher, error) {
	switch cfg.TLS {
	case "imaps", "starttls", "plain":
	default:
		return nil, fmt.Errorf("mail: imap tls mode %q: want imaps, starttls or plain", cfg.TLS)
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return nil, fmt.Errorf("mail: imap address %q: %w", cfg.Addr, err)
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	switch cfg.After {
	case "", "flag":
		cfg.After = "flag"
	case "move":
		if cfg.MoveTo == "" || cfg.MoveTo == cfg.Mailbox {
			return nil, fmt.Errorf("mail: imap after=move needs a move_to folder other than %q", cfg.Mailbox)
		}
	default:
		return nil, fmt.Errorf("mail: imap after %q: want flag or move", cfg.After)
	}
	if cfg.Keyword == "" {
		cfg.Keyword = "$RallyjudgeDone"
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.IdleTimeout, 2*time.Minute)
	def(&cfg.PollInterval, time.Minute)
	def(&cfg.MinBackoff, time.Second)
	def(&cfg.MaxBackoff, 5*time.Minute)
	if cfg.MaxFetchSize <= 0 {
		cfg.MaxFetchSize = 32 << 20
	}
	if cfg.BatchBytes <= 0 {
		cfg.BatchBytes = 8 << 20
	}
	if cfg.BatchCount <= 0 {
		cfg.BatchCount = 100
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	lg = lg.With("imap", cfg.Addr, "mailbox", cfg.Mailbox)
	return &Fetcher{cfg: cfg, log: lg, poke: make(chan struct{}, 1), pos: cfg.Since,
		pending: map[uint32]bool{}, retry: map[uint32]bool{}}, nil
}

// Position returns the last position handled.
func (f *Fetcher) Position() Position {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pos
}

// Poke asks for a check now (for example after the demo's bots sent mail). It never blocks.
func (f *Fetcher) Poke() {
	select {
	case f.poke <- struct{}{}:
	default:
	}
}

// Run reads the mailbox until ctx ends, reconnecting with exponential backoff after any error.
// It returns ctx's error.
func (f *Fetcher) Run(ctx context.Context, handle Handler) error {
	backoff := f.cfg.MinBackoff
	for {
		start := time.Now()
		err := f.session(ctx, handle)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(start) > f.cfg.MaxBackoff {
			backoff = f.cfg.MinBackoff // the connection was good for a while
		}
		f.log.Warn("imap session ended; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, f.cfg.MaxBackoff)
	}
}

func (f *Fetcher) dial(ctx context.Context, opts *imapclient.Options) (*imapclient.Client, error) {
	host, _, _ := net.SplitHostPort(f.cfg.Addr)
	tlsConfig := &tls.Config{ServerName: host, InsecureSkipVerify: f.cfg.InsecureSkipVerify} //nolint:gosec // tests only, documented
	if f.cfg.ServerName != "" {
		tlsConfig.ServerName = f.cfg.ServerName
	}
	opts.TLSConfig = tlsConfig
	d := &net.Dialer{Timeout: 30 * time.Second}
	switch f.cfg.TLS {
	case "imaps":
		tlsConfig.NextProtos = []string{"imap"}
		conn, err := (&tls.Dialer{NetDialer: d, Config: tlsConfig}).DialContext(ctx, "tcp", f.cfg.Addr)
		if err != nil {
			return nil, err
		}
		return imapclient.New(conn, opts), nil
	case "starttls":
		conn, err := d.DialContext(ctx, "tcp", f.cfg.Addr)
		if err != nil {
			return nil, err
		}
		return imapclient.NewStartTLS(conn, opts)
	default:
		conn, err := d.DialContext(ctx, "tcp", f.cfg.Addr)
		if err != nil {
			return nil, err
		}
		return imapclient.New(conn, opts), nil
	}
}

// session is one connection: login, select, sweep, then IDLE or poll and check, until an error.
func (f *Fetcher) session(ctx context.Context, handle Handler) error {
	news := make(chan struct{}, 1)
	opts := &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		// runs on the client's reader goroutine: never block it
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case news <- struct{}{}:
				default:
				}
			}
		},
	}}
	c, err := f.dial(ctx, opts)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := c.Login(f.cfg.Username, f.cfg.Password).Wait(); err != nil {
		return fmt.Errorf("login as %s: %w", f.cfg.Username, err)
	}
	if f.cfg.After == "move" {
		if _, err := c.Status(f.cfg.MoveTo, &imap.StatusOptions{NumMessages: true}).Wait(); err != nil {
			if err := c.Create(f.cfg.MoveTo, nil).Wait(); err != nil {
				return fmt.Errorf("create %s: %w", f.cfg.MoveTo, err)
			}
		}
	}
	sel, err := c.Select(f.cfg.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("select: %w", err)
	}
	keywords := slices.Contains(sel.PermanentFlags, imap.FlagWildcard) || slices.Contains(sel.PermanentFlags, imap.Flag(f.cfg.Keyword))
	if f.cfg.After == "flag" && !keywords {
		f.log.Warn("server keeps no custom keywords here; \\Seen and the UID position mark handled mail", "keyword", f.cfg.Keyword)
	}
	f.mu.Lock()
	f.kwOK = keywords
	if f.pos.UIDValidity != sel.UIDValidity {
		if f.pos.UIDValidity != 0 {
			f.log.Warn("UIDVALIDITY changed: the mailbox was rebuilt; offering everything not marked done again",
				"old", f.pos.UIDValidity, "new", sel.UIDValidity)
		}
		f.pos = Position{UIDValidity: sel.UIDValidity}
		clear(f.pending)
		clear(f.retry)
	}
	f.mu.Unlock()
	f.log.Debug("imap selected", "uidvalidity", sel.UIDValidity, "uidnext", sel.UIDNext, "exists", sel.NumMessages)
	idle := c.Caps().Has(imap.CapIdle) || c.Caps().Has(imap.CapIMAP4rev2)

	// first the handled-but-unmarked ones of an earlier connection, then a full sweep
	if err := f.markPending(c); err != nil {
		return err
	}
	if err := f.check(ctx, c, handle, true, keywords); err != nil {
		return err
	}
	for {
		if idle {
			cmd, err := c.Idle()
			if err != nil {
				return fmt.Errorf("idle: %w", err)
			}
			timer := time.NewTimer(f.cfg.IdleTimeout)
			select {
			case <-news:
			case <-f.poke:
			case <-timer.C:
			case <-ctx.Done():
			case <-c.Closed():
			}
			timer.Stop()
			if err := cmd.Close(); err != nil {
				return fmt.Errorf("idle done: %w", err)
			}
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("idle: %w", err)
			}
		} else {
			timer := time.NewTimer(f.cfg.PollInterval)
			select {
			case <-f.poke:
			case <-timer.C:
			case <-ctx.Done():
			case <-c.Closed():
			}
			timer.Stop()
		}
		if ctx.Err() != nil {
			_ = c.Logout().Wait()
			return ctx.Err()
		}
		// drain a notice that came with the last command; the check below sees that mail
		select {
		case <-news:
		default:
		}
		if err := c.Noop().Wait(); err != nil {
			return fmt.Errorf("noop: %w", err)
		}
		if err := f.check(ctx, c, handle, false, keywords); err != nil {
			return err
		}
	}
}

// check finds the messages to offer and offers them. A full check (after connecting) takes every
// message not marked done; a quick one those above the position plus earlier failures.
func (f *Fetcher) check(ctx context.Context, c *imapclient.Client, handle Handler, full, keywords bool) error {
	f.mu.Lock()
	pos := f.pos
	retry := make([]imap.UID, 0, len(f.retry))
	for u := range f.retry {
		retry = append(retry, imap.UID(u))
	}
	f.mu.Unlock()

	crit := &imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}
	switch {
	case full && f.cfg.After == "move":
		// everything left in the mailbox is unhandled
	case full && keywords:
		crit.NotFlag = append(crit.NotFlag, imap.Flag(f.cfg.Keyword))
	case full:
		// no custom keywords here: \Seen is the only mark we can leave
		crit.NotFlag = append(crit.NotFlag, imap.FlagSeen)
	default:
		var set imap.UIDSet
		set.AddRange(imap.UID(pos.UID+1), 0) // pos.UID+1:*
		if len(retry) > 0 {
			set.AddNum(retry...)
		}
		crit.UID = []imap.UIDSet{set}
		if f.cfg.After == "flag" && keywords {
			crit.NotFlag = append(crit.NotFlag, imap.Flag(f.cfg.Keyword))
		}
	}
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return fmt.Errorf("uid search: %w", err)
	}
	var uids []imap.UID
	for _, u := range data.AllUIDs() {
		// "UID SEARCH n:*" always matches the highest UID, even below n (RFC 3501 6.4.8)
		if !full && uint32(u) <= pos.UID && !slices.Contains(retry, u) {
			continue
		}
		f.mu.Lock()
		done := f.pending[uint32(u)]
		f.mu.Unlock()
		if !done {
			uids = append(uids, u)
		}
	}
	slices.Sort(uids)
	if len(uids) == 0 {
		return nil
	}
	f.log.Debug("imap messages to fetch", "count", len(uids), "full", full)
	return f.fetch(ctx, c, handle, uids)
}

// fetch sizes the messages, fetches them in batches bounded by bytes and count, offers each to
// the handler in UID order and marks the ones it accepted.
func (f *Fetcher) fetch(ctx context.Context, c *imapclient.Client, handle Handler, uids []imap.UID) error {
	sizes := map[imap.UID]int64{}
	for chunk := range slices.Chunk(uids, 500) {
		msgs, err := c.Fetch(imap.UIDSetNum(chunk...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		if err != nil {
			return fmt.Errorf("fetch sizes: %w", err)
		}
		for _, m := range msgs {
			sizes[m.UID] = m.RFC822Size
		}
	}
	var batch []imap.UID
	var batchBytes int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := f.fetchBatch(ctx, c, handle, batch, sizes)
		batch, batchBytes = batch[:0], 0
		return err
	}
	for _, u := range uids {
		size, ok := sizes[u]
		if !ok {
			continue // expunged meanwhile
		}
		size = min(size, f.cfg.MaxFetchSize)
		if len(batch) > 0 && (batchBytes+size > f.cfg.BatchBytes || len(batch) >= f.cfg.BatchCount) {
			if err := flush(); err != nil {
				return err
			}
		}
		batch = append(batch, u)
		batchBytes += size
	}
	return flush()
}

func (f *Fetcher) fetchBatch(ctx context.Context, c *imapclient.Client, handle Handler, batch []imap.UID, sizes map[imap.UID]int64) error {
	var whole, big []imap.UID
	for _, u := range batch {
		if sizes[u] > f.cfg.MaxFetchSize {
			big = append(big, u)
		} else {
			whole = append(whole, u)
		}
	}
	var msgs []*imapclient.FetchMessageBuffer
	if len(whole) > 0 {
		// BODY.PEEK[] leaves \Seen alone: only a handled message is marked
		got, err := c.Fetch(imap.UIDSetNum(whole...), &imap.FetchOptions{UID: true,
			BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		msgs = append(msgs, got...)
	}
	if len(big) > 0 {
		got, err := c.Fetch(imap.UIDSetNum(big...), &imap.FetchOptions{UID: true,
			BodySection: []*imap.FetchItemBodySection{{Peek: true, Partial: &imap.SectionPartial{Offset: 0, Size: f.cfg.MaxFetchSize}}}}).Collect()
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		msgs = append(msgs, got...)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })

	f.mu.Lock()
	uidvalidity := f.pos.UIDValidity
	f.mu.Unlock()
	var done []imap.UID
	for _, m := range msgs {
		if m.UID == 0 || len(m.BodySection) == 0 {
			continue
		}
		raw := m.BodySection[0].Bytes
		if sizes[m.UID] > f.cfg.MaxFetchSize {
			f.log.Warn("imap message over the fetch limit; offered truncated", "uid", m.UID, "size", sizes[m.UID])
		}
		err := handle(ctx, uidvalidity, uint32(m.UID), raw)
		f.mu.Lock()
		if uint32(m.UID) > f.pos.UID {
			f.pos.UID = uint32(m.UID)
		}
		if err != nil {
			f.retry[uint32(m.UID)] = true
		} else {
			delete(f.retry, uint32(m.UID))
			f.pending[uint32(m.UID)] = true
			done = append(done, m.UID)
		}
		f.mu.Unlock()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			f.log.Warn("handler refused a message; it stays unmarked and is offered again", "uid", m.UID, "err", err)
		}
	}
	return f.mark(c, done)
}

// markPending marks what was handled on an earlier connection but not marked.
func (f *Fetcher) markPending(c *imapclient.Client) error {
	f.mu.Lock()
	var uids []imap.UID
	for u := range f.pending {
		uids = append(uids, imap.UID(u))
	}
	f.mu.Unlock()
	slices.Sort(uids)
	return f.mark(c, uids)
}

// mark flags or moves handled messages, then forgets them as pending.
func (f *Fetcher) mark(c *imapclient.Client, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	if f.cfg.After == "move" {
		if _, err := c.Move(set, f.cfg.MoveTo).Wait(); err != nil {
			return fmt.Errorf("move to %s: %w", f.cfg.MoveTo, err)
		}
	} else {
		flags := []imap.Flag{imap.FlagSeen}
		f.mu.Lock()
		if f.kwOK {
			flags = append(flags, imap.Flag(f.cfg.Keyword))
		}
		f.mu.Unlock()
		if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close(); err != nil {
			return fmt.Errorf("store flags: %w", err)
		}
	}
	f.mu.Lock()
	for _, u := range uids {
		delete(f.pending, uint32(u))
	}
	f.mu.Unlock()
	return nil
}
