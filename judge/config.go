package judge

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Config is rallyjudge serve's configuration file (YAML). Every key is documented in
// docs/config.md; unknown keys are an error. Secrets are never in the file itself: a
// password is read from the environment variable or file the config names.
type Config struct {
	Database     string       `yaml:"database"`      // SQLite file, or a postgres:// DSN without its password
	JudgeAddress string       `yaml:"judge_address"` // From: of every mail rallyjudge sends
	JudgeName    string       `yaml:"judge_name"`
	IMAP         IMAPConfig   `yaml:"imap"`
	SMTP         SMTPConfig   `yaml:"smtp"`
	Limits       LimitsConfig `yaml:"limits"`
	TemplatesDir string       `yaml:"templates_dir"` // overrides for the embedded templates
	LogLevel     string       `yaml:"log_level"`     // debug, info, warn, error
	TickInterval Duration     `yaml:"tick_interval"` // how often deadlines and the outbox are checked
	// OperatorAddress is told, once, when the database cannot be written or is damaged
	// while the judge serves ("" for nobody).
	OperatorAddress string `yaml:"operator_address"`

	// The PostgreSQL role's password (database: postgres://…), read as the mail passwords
	// are: never in the DSN.
	DatabasePasswordEnv  string `yaml:"database_password_env"`
	DatabasePasswordFile string `yaml:"database_password_file"`
	// Lease (PostgreSQL only, several judges on one database: shared.go): how soon a
	// judge that is gone loses its claims (the server's keepalives on its sessions), how
	// often the others ask for the intake claim (a quarter of it) and the one reading the
	// mailbox checks it still holds it (half of it).
	Lease Duration `yaml:"lease"`
}

// IMAPConfig is the mailbox orders arrive in.
type IMAPConfig struct {
	Address            string   `yaml:"address"` // host:port
	TLS                string   `yaml:"tls"`     // imaps, starttls or plain
	InsecureSkipVerify bool     `yaml:"insecure_skip_verify"`
	Username           string   `yaml:"username"`
	PasswordEnv        string   `yaml:"password_env"`
	PasswordFile       string   `yaml:"password_file"`
	Mailbox            string   `yaml:"mailbox"`
	After              string   `yaml:"after"`       // flag (\Seen + keyword) or move
	DoneFolder         string   `yaml:"done_folder"` // for after: move
	PollInterval       Duration `yaml:"poll_interval"`
	IdleTimeout        Duration `yaml:"idle_timeout"`
	Timeout            Duration `yaml:"timeout"` // the watchdog of one IMAP command
}

// SMTPConfig is the server mail leaves by.
type SMTPConfig struct {
	Address            string   `yaml:"address"` // host:port
	TLS                string   `yaml:"tls"`     // none, starttls or tls
	InsecureSkipVerify bool     `yaml:"insecure_skip_verify"`
	Username           string   `yaml:"username"`
	PasswordEnv        string   `yaml:"password_env"`
	PasswordFile       string   `yaml:"password_file"`
	Helo               string   `yaml:"helo"`
	Timeout            Duration `yaml:"timeout"` // one whole SMTP dialogue
}

// LimitsConfig bounds what a stranger can make rallyjudge do.
type LimitsConfig struct {
	MaxMessageBytes int `yaml:"max_message_bytes"`
	// AuthFailures is how many wrong secrets an address may send in AuthWindow before its
	// mail is ignored until the window passes.
	AuthFailures int      `yaml:"auth_failures"`
	AuthWindow   Duration `yaml:"auth_window"`
	MaxAttempts  int      `yaml:"max_send_attempts"`
	// UnwritableExit is how long the judge waits, intake stopped, for a database that
	// cannot be written before it stops (exits non-zero).
	UnwritableExit Duration `yaml:"unwritable_exit"`
	// IntegrityCheck is how often the running judge checks the SQLite database's pages
	// (PRAGMA quick_check; intake checks them before each batch too); 0 turns the
	// running checks off. Unused on PostgreSQL.
	IntegrityCheck Duration `yaml:"integrity_check"`
}

// Duration is a time.Duration written as "90s", "5m", "2h".
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		// A TypeError lets the decoder go on, so every problem is reported at once.
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %q is not a duration (like 90s, 5m, 2h)", n.Line, n.Value)}}
	}
	*d = Duration(v)
	return nil
}

// D is the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// DefaultConfig holds every default; a config file overrides what it names.
func DefaultConfig() Config {
	return Config{
		JudgeName: "rallyjudge",
		IMAP: IMAPConfig{TLS: "imaps", Mailbox: "INBOX", After: "flag", DoneFolder: "rallyjudge-done",
			PollInterval: Duration(time.Minute), IdleTimeout: Duration(5 * time.Minute), Timeout: Duration(2 * time.Minute)},
		SMTP: SMTPConfig{TLS: "starttls", Helo: "localhost", Timeout: Duration(2 * time.Minute)},
		Limits: LimitsConfig{MaxMessageBytes: DefaultMaxMessageBytes, AuthFailures: 5, AuthWindow: Duration(time.Hour), MaxAttempts: 8,
			UnwritableExit: Duration(DefaultUnwritableExit), IntegrityCheck: Duration(DefaultIntegrityCheck)},
		LogLevel:     "info",
		TickInterval: Duration(30 * time.Second),
		Lease:        Duration(2 * time.Second),
	}
}

// LoadConfig reads and checks a config file. getenv reads environment variables (os.Getenv
// in production, a map in tests).
func LoadConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return ParseConfig(path, b)
}

// ParseConfig reads a config from bytes; name is used in errors. Every problem is
// reported at once, each by its key as the file writes it ("imap.usernme: unknown key
// (line 6); did you mean username?"), never by a Go type's name.
func ParseConfig(name string, b []byte) (Config, error) {
	c := DefaultConfig()
	if len(b) > 1<<20 {
		return c, fmt.Errorf("config %s: larger than 1 MiB", name)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return c, fmt.Errorf("config %s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var errs []string
	keyAt := map[int]string{} // line → the key written there, to name a bad value's key
	if len(root.Content) > 0 {
		checkKeys(root.Content[0], reflect.TypeOf(c), "", keyAt, &errs)
	}
	if err := root.Decode(&c); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return c, fmt.Errorf("config %s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
		}
		for _, e := range te.Errors {
			errs = append(errs, namedByKey(e, keyAt))
		}
	}
	if err := c.check(); err != nil {
		errs = append(errs, err...)
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("config %s: %d problem(s):\n  %s", name, len(errs), strings.Join(errs, "\n  "))
	}
	return c, nil
}

// checkKeys reports every key of a mapping node that t (a struct with yaml tags) does
// not have, by its dotted path, with the nearest known key as a hint.
func checkKeys(n *yaml.Node, t reflect.Type, prefix string, keyAt map[int]string, errs *[]string) {
	if n.Kind != yaml.MappingNode || t.Kind() != reflect.Struct {
		return
	}
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tag := strings.Split(f.Tag.Get("yaml"), ",")[0]; tag != "" && tag != "-" {
			fields[tag] = f.Type
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := prefix + k.Value
		keyAt[v.Line] = path
		ft, ok := fields[k.Value]
		if !ok {
			msg := fmt.Sprintf("%s: unknown key (line %d)", path, k.Line)
			if near := nearestKey(k.Value, fields); near != "" {
				msg += "; did you mean " + prefix + near + "?"
			}
			*errs = append(*errs, msg)
			continue
		}
		checkKeys(v, ft, path+".", keyAt, errs)
	}
}

// nearestKey is the known key closest to k (at most two edits away), or "".
func nearestKey(k string, fields map[string]reflect.Type) string {
	best, bestD := "", 3
	for f := range fields {
		if d := editDistance(k, f); d < bestD || d == bestD && f < best {
			best, bestD = f, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// namedByKey rewrites a decoder error "line 7: cannot unmarshal !!str `x` into int" as
// "limits.max_message_bytes (line 7): cannot read "x" as a number".
func namedByKey(e string, keyAt map[int]string) string {
	m := yamlLine.FindStringSubmatch(e)
	if m == nil {
		return e
	}
	line, _ := strconv.Atoi(m[1])
	msg := m[2]
	if u := unmarshalInto.FindStringSubmatch(msg); u != nil {
		kind := map[string]string{"int": "a whole number", "bool": "true or false", "string": "text"}[u[2]]
		if kind == "" {
			kind = "a " + u[2]
		}
		msg = fmt.Sprintf("%q is not %s", u[1], kind)
	}
	if k, ok := keyAt[line]; ok {
		return fmt.Sprintf("%s (line %d): %s", k, line, msg)
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}

var unmarshalInto = regexp.MustCompile("^cannot unmarshal !!\\w+ `(.*)` into (\\S+)$")

func (c Config) check() []string {
	var errs []string
	need := func(v, key string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, key+" is required")
		}
	}
	oneOf := func(v, key string, allowed ...string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		errs = append(errs, fmt.Sprintf("%s: %q is not one of %s", key, v, strings.Join(allowed, ", ")))
	}
	need(c.Database, "database")
	if store.IsPostgres(c.Database) {
		if p := dsnPasswordProblem(c.Database); p != "" {
			errs = append(errs, p)
		}
	} else if c.DatabasePasswordEnv != "" || c.DatabasePasswordFile != "" {
		errs = append(errs, "database_password_env, database_password_file: only for a postgres:// database (a SQLite file has no password)")
	}
	need(c.JudgeAddress, "judge_address")
	if strings.TrimSpace(c.JudgeAddress) != "" {
		if p := judgeAddressProblem(c.JudgeAddress); p != "" {
			errs = append(errs, p)
		}
	}
	need(c.IMAP.Address, "imap.address")
	need(c.IMAP.Username, "imap.username")
	need(c.SMTP.Address, "smtp.address")
	oneOf(c.IMAP.TLS, "imap.tls", "imaps", "starttls", "plain")
	oneOf(c.IMAP.After, "imap.after", "flag", "move")
	oneOf(c.SMTP.TLS, "smtp.tls", "none", "starttls", "tls")
	oneOf(c.LogLevel, "log_level", "debug", "info", "warn", "error")
	if c.IMAP.PasswordEnv == "" && c.IMAP.PasswordFile == "" {
		errs = append(errs, "imap: set password_env or password_file (passwords are never written in the config)")
	}
	if c.Lease.D() <= 0 {
		errs = append(errs, "lease must be positive")
	}
	if c.Limits.MaxMessageBytes <= 0 {
		errs = append(errs, "limits.max_message_bytes must be positive")
	}
	// the judge's name is the display name of everything it sends (issue 14 item 9)
	if err := checkName("judge_name", c.JudgeName); err != nil {
		errs = append(errs, err.Error())
	}
	return errs
}

// dsnPasswordProblem says what is wrong with a PostgreSQL DSN in the config, or "": a
// password in it (the config is no place for one; database_password_env or
// database_password_file name where it is).
func dsnPasswordProblem(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "database: the postgres:// DSN does not parse (postgres://user@host:port/database?sslmode=...)"
	}
	if _, ok := u.User.Password(); ok || u.Query().Has("password") {
		return "database: the DSN holds a password; take it out and set database_password_env or database_password_file (passwords are never written in the config)"
	}
	return ""
}

// judgeAddressProblem says what is wrong with the config's judge_address, or "". The
// judge's address is the From of every mail it sends and the envelope sender SMTP is
// given, so it must be one plain address (local@domain, a domain with a dot) that an SMTP
// server takes: a display name, angle brackets or a bare user name would otherwise be
// found only when every mail the judge writes fails to go out. The error never echoes the
// address (it may hold control characters).
func judgeAddressProblem(a string) string {
	if err := CheckAddress("judge_address", a); err != nil {
		msg := err.Error()
		if strings.ContainsAny(a, "<>\"") {
			msg += " The name shown in From goes in judge_name."
		}
		return msg
	}
	if !mail.ValidAddress(a) {
		return "judge_address: not an address an SMTP server takes as the sender; want local@domain, a domain with a dot (like robojudge@example.org)."
	}
	return ""
}

// Secret reads a password from the named environment variable or file (first line,
// trimmed). It returns "" when neither is set, which is allowed for servers without AUTH.
func Secret(env, file string, getenv func(string) string) (string, error) {
	if env != "" {
		v := getenv(env)
		if v == "" {
			return "", fmt.Errorf("environment variable %s is empty or not set", env)
		}
		return v, nil
	}
	if file != "" {
		// ${VAR} in the path is expanded, for systemd's $CREDENTIALS_DIRECTORY.
		file = os.Expand(file, getenvOr(getenv))
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("password file: %w", err)
		}
		return strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]), nil
	}
	return "", nil
}

func getenvOr(getenv func(string) string) func(string) string {
	if getenv == nil {
		return os.Getenv
	}
	return getenv
}
