package judge

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

// The corpus: raw replies as each client family writes them (mail/testdata/clients). Every
// one answers the welcome of game spring for the robot Zoombot, whose secret is
// tango-42-kilo; the quoted welcome carries the placeholder "secret YOUR-SECRET", which
// must never be read.
const corpusSecret = "tango-42-kilo"

var corpusFacts = map[string]struct {
	program string // the priorities read (a 2023 card: its kind), "" for none
	cmds    string // a command mail's verbs
	errs    []int  // lines of the problems, in order
	orders  int    // standing and conditional orders read
	rules   string // "2023" for a sheet of the 2023 rules (game spring on docking-run)
	auto    bool   // an automatic mail (a mailing list's copy): never read, never answered
	// noRobot: the sheet names no robot (the judge takes the one the address plays)
	noRobot bool
}{
	"gmail_web":                   {program: "490 670 10 840 530", orders: 1},
	"gmail_web_unmarked":          {program: "490 670 10 840 530"},
	"gmail_android":               {program: "490 670 10 840 530", orders: 1},
	"gmail_ios":                   {program: "490 670 10 840 530", orders: 1},
	"gmail_errors":                {program: "495 670 10 840 530", errs: []int{13}},
	"outlook_desktop_plain":       {program: "490 670 10 840 530", orders: 1},
	"outlook_desktop_html_only":   {program: "490 670 10 840 530", orders: 1},
	"outlook_desktop_alternative": {program: "490 670 10 840 530", orders: 1},
	"outlook_web":                 {program: "490 670 10 840 530", orders: 1},
	"outlook_ios":                 {program: "490 670 10 840 530", orders: 1},
	"outlook_android":             {program: "490 670 10 840 530", orders: 1},
	"outlook365_german":           {program: "490 670 10 840 530", orders: 1},
	"apple_mail":                  {program: "490 670 10 840 530", orders: 1},
	"iphone":                      {program: "490 670 10 840 530", orders: 1},
	"iphone_flowed_delsp":         {program: "490 670 10 840 530", orders: 2},
	"thunderbird_flowed":          {program: "10 670 840 530 730"},
	"thunderbird_bottom_post":     {program: "490 670 10 840 530", orders: 1},
	"k9":                          {program: "490 670 10 840 530", orders: 1},
	"fairemail":                   {program: "490 670 10 840 530", orders: 1},
	"roundcube":                   {program: "490 670 10 840 530", orders: 1},
	"mutt":                        {program: "490 670 10 840 530", orders: 1},
	"yaml_signature":              {program: "490 670 10 840 530", orders: 1},
	"join_signoff":                {cmds: "JOIN"},
	// session 4: the shapes above did not have
	"gmail_conditional_report":   {program: "490 670 10 840 530", orders: 3},
	"outlook_tnef_cp1252":        {program: "490 670 10 840 530", orders: 1, errs: []int{3, 16, 17}}, // line 1, "Hi,", a greeting (orders/greetings.go)
	"iphone_qp_softbreak":        {program: "490 670 10 840 530", orders: 1},
	"thunderbird_options_flowed": {program: "490 670 10 840 530", orders: 3},
	"samsung_toppost_report":     {program: "490 670 10 840 530", noRobot: true},
	"yahoo_android_toppost":      {program: "490 670 10 840 530", noRobot: true},
	"claws_latin1":               {program: "490 670 10 840 530", orders: 1},
	"outlook_notepad_attachment": {program: "490 670 10 840 530", orders: 1},
	"gmail_yaml2023_attachment":  {program: "move2 again left move3 uturn", orders: 1, rules: "2023"},
	"proton_invisible_2023":      {program: "move2 again left move3 uturn", orders: 1, rules: "2023"},
	"mutt_2023_bom":              {program: "move2 again left move3 uturn", orders: 2, rules: "2023"},
	"gmail_join_lowercase":       {cmds: "JOIN"},
	"outlook_create_smartquotes": {cmds: "CREATE"},
	"iphone_press_flowed":        {cmds: "PRESS"},
	"thunderbird_observe":        {cmds: "OBSERVE"},
	"k9_absent":                  {cmds: "ABSENT"},
	"outlook_web_list_help":      {cmds: "LIST HELP"},
	"outlook_status_fwd_subject": {cmds: "STATUS"},
	"gmail_replyall_list_game":   {cmds: "STATUS"},
	"outlook_web_zwsp_commands":  {cmds: "WAIT TIMEZONE"},
	"mailman_list_copy":          {auto: true},
	"googlegroups_list_copy":     {cmds: "PRESS", auto: true},
	// session 5: shapes the corpus did not have (client-mails)
	"gmail_inline_welcome":          {program: "490 670 10 840 530", orders: 1, noRobot: true},
	"gmail_base64_russian":          {program: "490 670 10 840 530"},
	"gmail_forward_own_sheet":       {program: "490 670 10 840 530"},
	"outlook_czech_cp1250":          {program: "490 670 10 840 530", noRobot: true},
	"outlook_web_polish":            {program: "490 670 10 840 530", noRobot: true},
	"outlook_report_html_only":      {program: "490 670 10 840 530", noRobot: true},
	"outlook_smime_signed":          {program: "490 670 10 840 530", noRobot: true},
	"outlook_utf16_attachment":      {program: "490 670 10 840 530"},
	"outlook_subject_q_latin1":      {program: "490 670 10 840 530"},
	"iphone_subject_b_split":        {program: "490 670 10 840 530"},
	"apple_mail_vcard":              {program: "490 670 10 840 530"},
	"mutt_pgp_inline":               {program: "490 670 10 840 530", orders: 1},
	"mutt_unknown_8bit":             {program: "490 670 10 840 530"},
	"thunderbird_pgp_inline_yaml":   {program: "490 670 10 840 530", orders: 1},
	"thunderbird_pgpmime_signed":    {program: "490 670 10 840 530", orders: 1},
	"thunderbird_encrypted":         {},
	"thunderbird_latin9":            {program: "490 670 10 840 530", noRobot: true},
	"thunderbird_iso2022jp":         {program: "490 670 10 840 530"},
	"thunderbird_rfc2231_yaml":      {program: "490 670 10 840 530", orders: 1},
	"squirrelmail_crcrlf":           {program: "490 670 10 840 530", errs: []int{10}},
	"claws_tabs":                    {program: "490 670 10 840 530", orders: 1},
	"postfix_bounce_with_sheet":     {auto: true},
	"exchange_oof":                  {auto: true},
	"iphone_danish":                 {program: "490 670 10 840 530", noRobot: true},
	"iphone_dutch":                  {program: "490 670 10 840 530", noRobot: true},
	"iphone_polish":                 {program: "490 670 10 840 530", noRobot: true},
	"iphone_japanese":               {program: "490 670 10 840 530", noRobot: true},
	"gmx_android_german":            {program: "490 670 10 840 530", noRobot: true},
	"samsung_german":                {program: "490 670 10 840 530", noRobot: true},
	"thunderbird_forward_own_sheet": {program: "490 670 10 840 530"},
	"apple_mail_split_by_image":     {program: "490 670 10 840 530"},
	"gmail_german_unmarked":         {program: "490 670 10 840 530"},
	"gmail_italian_unmarked":        {program: "490 670 10 840 530"},
	"gmail_polish_unmarked":         {program: "490 670 10 840 530"},
	"gmail_russian_unmarked":        {program: "490 670 10 840 530"},
	"zoho_mail":                     {program: "490 670 10 840 530"},
	"tuta_html_only":                {program: "490 670 10 840 530"},
	"thunderbird_forward_attached":  {program: "490 670 10 840 530", orders: 1},
	"outlook_smime_encrypted":       {},
}

// programOf is a sheet's program as corpusFacts writes it: priorities, or kinds for
// 2023 cards.
func programOf(s *orders.Sheet) string {
	var ps []string
	for _, c := range s.Program {
		if c.Priority != 0 {
			ps = append(ps, fmt.Sprint(c.Priority))
		} else {
			ps = append(ps, c.Kind)
		}
	}
	return strings.Join(ps, " ")
}

func readCorpus(t *testing.T, path string) *Reading {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.Extract(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return Read(m, testReader)
}

// TestClientCorpus reads every mail of the corpus as the judge does and checks what it
// read: the player's sheet, never the quoted welcome's, with problems on the lines the
// player sees. The golden files are what `rallyjudge check --mail` prints.
func TestClientCorpus(t *testing.T) {
	files, err := filepath.Glob("../mail/testdata/clients/*.eml")
	if err != nil || len(files) < 84 {
		t.Fatalf("want the client corpus (84 mails or more), got %d (%v)", len(files), err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		t.Run(name, func(t *testing.T) {
			want, ok := corpusFacts[name]
			if !ok {
				t.Fatalf("no facts for %s: add them to corpusFacts", name)
			}
			r := readCorpus(t, path)
			if auto, _ := mail.IsAutomatic(r.Msg); auto != want.auto {
				t.Errorf("automatic %v, want %v", auto, want.auto)
			}
			var cmds []string
			for _, c := range r.Commands() {
				cmds = append(cmds, c.Verb)
			}
			if got := strings.Join(cmds, " "); got != want.cmds {
				t.Errorf("commands %q, want %q", got, want.cmds)
			}
			if want.program != "" {
				if r.Sheet == nil {
					t.Fatal("no sheet read")
				}
				if got := programOf(orderSheet(r)); got != want.program {
					t.Errorf("program %q, want %q", got, want.program)
				}
				if len(orderSheet(r).Rules) != want.orders {
					t.Errorf("%d orders read, want %d", len(orderSheet(r).Rules), want.orders)
				}
				game := r.Sheet.Game
				if game == "" {
					game = subjectTag(r.Msg.Subject) // as the judge takes it
				}
				robot := r.Sheet.Seat
				if want.noRobot && robot == "" {
					robot = "Zoombot"
				}
				if r.Sheet.Secret != corpusSecret || game != "spring" || robot != "Zoombot" {
					t.Errorf("read game %q robot %q secret %q: want spring, Zoombot and the player's secret", game, r.Sheet.Seat, r.Sheet.Secret)
				}
				var lines []int
				_, n := problemsOf(r.SheetText, r.SheetErr, nil)
				if r.SheetErr != nil {
					for _, p := range r.SheetErr.(sheetProblemsError).SheetProblems() {
						lines = append(lines, p.Line)
					}
				}
				if fmt.Sprint(lines) != fmt.Sprint(want.errs) && !(len(lines) == 0 && len(want.errs) == 0) || n != len(want.errs) {
					t.Errorf("problems on lines %v, want %v: %v", lines, want.errs, r.SheetErr)
				}
				if strings.Contains(r.SheetText, "YOUR-SECRET") {
					t.Errorf("the quoted welcome is in the text read:\n%s", r.SheetText)
				}
			}
			var b bytes.Buffer
			r.Describe(&b)
			if strings.Contains(b.String(), corpusSecret) {
				t.Errorf("the description shows the secret:\n%s", b.String())
			}
			golden := filepath.Join("testdata", "intake", name+".golden")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./judge -run TestClientCorpus -update)", err)
			}
			if b.String() != string(g) {
				t.Errorf("differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), g)
			}
		})
	}
}

// TestAttachedYAMLWithoutDocumentStartIsYAML: a sheet attached as orders.yaml that does
// not start with "---" was read as a text sheet, and its "program: [...]" drew "expected
// an order, got [". An attachment named .yaml or .yml is read as YAML, as `rallyjudge
// check` reads such a file; a .txt stays text, and a body never turns YAML without "---".
func TestAttachedYAMLWithoutDocumentStartIsYAML(t *testing.T) {
	yamlSheet := "game: spring\nrobot: Zoombot\nsecret: tango-42-kilo\nprogram: [P490, P670, P10, P840, P530]\n"
	attached := func(name, body string) []byte {
		return []byte("From: zoe@example.test\r\nTo: judge@example.test\r\nSubject: [RR spring] orders\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nattached\r\n" +
			"--b\r\nContent-Type: application/octet-stream; name=\"" + name + "\"\r\nContent-Disposition: attachment; filename=\"" + name + "\"\r\n\r\n" +
			body + "\r\n--b--\r\n")
	}
	tests := []struct {
		name    string
		raw     []byte
		program string // "" when the sheet must not read
	}{
		{"orders.yaml", attached("orders.yaml", yamlSheet), "490 670 10 840 530"},
		{"ORDERS.YML", attached("ORDERS.YML", yamlSheet), "490 670 10 840 530"},
		{"orders.yaml with ---", attached("orders.yaml", "---\n"+yamlSheet), "490 670 10 840 530"},
		{"orders.txt holding yaml without ---", attached("orders.txt", yamlSheet), ""},
		{"orders.txt holding text", attached("orders.txt", "robot Zoombot\nsecret tango-42-kilo\nP490 P670 P10 P840 P530\n"), "490 670 10 840 530"},
		{"body holding yaml without ---", []byte("From: zoe@example.test\r\nSubject: x\r\n\r\n" + yamlSheet), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mail.Extract(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			r := Read(m, testReader)
			if r.Sheet == nil {
				t.Fatal("no sheet")
			}
			if tt.program == "" {
				if r.SheetErr == nil {
					t.Errorf("read without an error: %s", programOf(orderSheet(r)))
				}
				return
			}
			if r.SheetErr != nil || programOf(orderSheet(r)) != tt.program || r.Sheet.Seat != "Zoombot" {
				t.Errorf("program %q robot %q, err %v", programOf(orderSheet(r)), r.Sheet.Seat, r.SheetErr)
			}
		})
	}
}

// TestQuotedLineHidesSecretBehindInvisibleCharacters: a line quoted under a problem
// hid its secret only when "secret" began the line; a zero-width space or a no-break
// space before it (a web client, a paste) left the secret in the reply and in `rallyjudge
// check --mail`.
func TestQuotedLineHidesSecretBehindInvisibleCharacters(t *testing.T) {
	for _, l := range []string{
		"secret abcd-efgh-jkmn-pqrs",
		"\u200bsecret abcd-efgh-jkmn-pqrs",
		"\u00a0password:\u00a0abcd-efgh-jkmn-pqrs",
		"\ufeffsecret\tabcd-efgh-jkmn-pqrs",
		"secret abcd\u200b-efgh-jkmn-pqrs",
		"> \u200bpw = abcd-efgh-jkmn-pqrs",
	} {
		got := quotedLine([]string{l}, 1)
		if strings.Contains(strings.ReplaceAll(got, "\u200b", ""), "abcd-efgh") || !strings.Contains(got, "(secret)") {
			t.Errorf("%q quoted as %q", l, got)
		}
	}
}
