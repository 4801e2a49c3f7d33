package mail

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStripReply(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "|" separates lines
	}{
		{"quote below", "P490\n\nOn Mon, 23 Nov 2026, Judge <j@x.test> wrote:\n> old\n", "P490"},
		{"quote above, text below (mutt)", "* Judge <j@x.test> [2026-11-23 10:00]:\n> old\n> more\n\nP490\n", "||||P490"},
		{"gmail attribution wrapped over two lines",
			"#orders\nP490\n#end\n\nOn Mon, Nov 23, 2026 at 10:00 AM Rallyjudge <\njudge@example.test> wrote:\n\n> Welcome\n",
			"#orders|P490|#end"},
		{"outlook attribution wrapped over three lines",
			"P490\nOn Monday, November 23, 2026 10:00 AM,\nRallyjudge\n<judge@example.test> wrote:\n> x\n", "P490"},
		{"german attribution", "P490\nAm 23.11.2026 um 10:00 schrieb Rallyjudge <judge@example.test>:\n> x\n", "P490"},
		{"outlook original message", "#orders\nP490\n#end\n\n-----Original Message-----\nFrom: Judge\n#orders\nsecret YOUR-SECRET\n", "#orders|P490|#end"},
		{"outlook from/sent block", "#orders\nP490\n#end\n\n________________________________\nFrom: Rallyjudge <judge@example.test>\nSent: Monday, November 23, 2026 10:00 AM\nTo: Zoe\nSubject: [RR spring] Welcome\n\n#orders\nsecret YOUR-SECRET\n",
			"#orders|P490|#end"},
		{"outlook from/sent block without rule", "P490\n\nFrom: Rallyjudge <judge@example.test>\nSent: Monday\n#orders\n", "P490"},
		{"german outlook block", "P490\n\nVon: Rallyjudge <judge@example.test>\nGesendet: Montag, 23. November 2026 10:00\nAn: Zoe\nBetreff: x\n#orders\n", "P490"},
		{"bold outlook block (html made text)", "P490\n*From:* Rallyjudge <judge@example.test>\n*Sent:* Monday\n", "P490"},
		{"unquoted attribution cuts", "P490\n\nOn Mon, 23 Nov 2026, Judge <j@x.test> wrote:\n\n#orders\nsecret YOUR-SECRET\n", "P490"},
		{"signature", "P490\n-- \nJürgen\n", "P490"},
		{"signature without its space", "P490\n--\nJürgen\n", "P490"},
		{"iphone", "P490\n\nSent from my iPhone\n\n> On 23 Nov 2026, at 10:00, Judge <j@x.test> wrote:\n> x\n", "P490"},
		{"outlook mobile", "P490\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n", "P490"},
		{"german iphone", "P490\nVon meinem iPhone gesendet\n", "P490"},
		{"forwarded", "P490\n---------- Forwarded message ---------\nFrom: x\n", "P490"},
		{"apple forward", "P490\nBegin forwarded message:\n\nFrom: x\n", "P490"},
		{"a colon line above a quote that is the player's", "program:\n> x\n", "program:"},
		{"lines keep their numbers", "> a\n> b\nP490\n", "||P490"},
		{"yaml document start is no signature", "---\nrobot: x\n", "---|robot: x"},
		{"yahoo attribution with the original on its line cuts",
			"secret x\n1: P490\n\nSent from Yahoo Mail on Android\n \n  On Tue, 24 Nov 2026 at 8:48, Rallyjudge<judge@example.test> wrote:   RoboRally game spring  #orders  secret YOUR-SECRET  1:  #end\n",
			"secret x|1: P490"},
		{"a sheet line starting with on and holding wrote: stays", "on a belt then power down\nOn 3 turns Hulk wrote: nothing\n", "on a belt then power down|On 3 turns Hulk wrote: nothing"},
		{"plain words named like a marker stay", "original message\nP490\n", "original message|P490"},
		// client-mails: Outlook's header block in Czech, Polish, Slovak, Hungarian, Russian,
		// Turkish and Portuguese was not seen, so the welcome under it was read
		{"czech outlook block", "P490\n\nOd: Rallyjudge <judge@example.test>\nOdesláno: pondělí 23. listopadu 2026 11:04\nKomu: Zoe\nPředmět: x\n#orders\n", "P490"},
		{"czech original message", "P490\n-----Původní zpráva-----\nsecret YOUR-SECRET\n", "P490"},
		{"polish outlook web block", "P490\n________________________________\nOd: Rallyjudge <judge@example.test>\nWysłane: poniedziałek, 23 listopada 2026 10:04\nDo: Zoe\nTemat: x\n#orders\n", "P490"},
		{"slovak outlook block", "P490\nOd: Rallyjudge <judge@example.test>\nOdoslané: 23. novembra 2026\nKomu: Zoe\nPredmet: x\n", "P490"},
		{"hungarian outlook block", "P490\nFeladó: Rallyjudge <judge@example.test>\nElküldve: 2026. november 23.\nCímzett: Zoe\nTárgy: x\n", "P490"},
		{"russian outlook block", "P490\nОт: Rallyjudge <judge@example.test>\nОтправлено: 23 ноября 2026 г.\nКому: Zoe\nТема: x\n", "P490"},
		{"turkish outlook block", "P490\nKimden: Rallyjudge <judge@example.test>\nGönderildi: 23 Kasım 2026\nKime: Zoe\nKonu: x\n", "P490"},
		{"portuguese outlook block", "P490\nDe: Rallyjudge <judge@example.test>\nAssunto: x\n", "P490"},
		// client-mails: an inline PGP signature's armor was read as orders and its
		// dash-escaping hid the "-- " separator and a YAML sheet's "---"
		{"inline pgp signature", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nP490\n- -- \nZoe\n-----BEGIN PGP SIGNATURE-----\n\niQIz\n=q7Xh\n-----END PGP SIGNATURE-----\n", "|||P490"},
		{"inline pgp signature, yaml", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n- ---\nprogram:\n- - P490\n-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\n", "|||---|program:|- P490"},
		{"quoted pgp armor stays a quote", "P490\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n> - -- x\n", "P490"},
		// client-mails: localized client signatures under an unmarked sheet were read as
		// orders ("expected an order, got "Sendt"")
		{"danish iphone", "P490\n\nSendt fra min iPhone\n", "P490"},
		{"dutch iphone", "P490\nVerstuurd vanaf mijn iPhone\n", "P490"},
		{"polish iphone", "P490\nWysłane z iPhone'a\n", "P490"},
		{"japanese iphone", "P490\niPhoneから送信\n", "P490"},
		{"german samsung", "P490\nVon meinem Samsung Galaxy Smartphone gesendet.\n", "P490"},
		{"gmx android", "P490\nDiese Nachricht wurde von meinem Android Mobiltelefon mit GMX Mail gesendet.\n", "P490"},
		{"a long line ending like a signature stays", "P490\n" + strings.Repeat("x", 40) + "から送信\n", "P490|" + strings.Repeat("x", 40) + "から送信"},
		// client-mails: Gmail wraps its attribution before the address; in German, Dutch,
		// Danish, Italian, Polish, Russian and Japanese its first line stayed and was read
		{"gmail german wrapped", "P490\n\nAm Mo., 23. Nov. 2026 um 10:04 Uhr schrieb Rallyjudge <\njudge@example.test>:\n\n> x\n", "P490"},
		{"gmail dutch wrapped", "P490\n\nOp ma 23 nov 2026 om 10:04 schreef Rallyjudge <\njudge@example.test>:\n\n> x\n", "P490"},
		{"gmail danish wrapped", "P490\n\nDen man. 23. nov. 2026 kl. 10.04 skrev Rallyjudge <\njudge@example.test>:\n\n> x\n", "P490"},
		{"gmail italian wrapped", "P490\n\nIl giorno lun 23 nov 2026 alle ore 10:04 Rallyjudge <\njudge@example.test> ha scritto:\n\n> x\n", "P490"},
		{"gmail polish wrapped", "P490\n\npon., 23 lis 2026 o 10:04 Rallyjudge <judge@example.test>\nnapisał(a):\n\n> x\n", "P490"},
		{"gmail russian wrapped", "P490\n\nпн, 23 нояб. 2026 г. в 10:04, Rallyjudge <\njudge@example.test>:\n\n> x\n", "P490"},
		{"gmail japanese", "P490\n\n2026年11月23日(月) 19:04 Rallyjudge <judge@example.test>:\n\n> x\n", "P490"},
		{"a dated line ending in an address is no attribution without a quote", "P490\nseen 2026-11-23 10:04 <judge@example.test>:\nP670\n", "P490|seen 2026-11-23 10:04 <judge@example.test>:|P670"},
		{"a line above a one-line attribution stays", "P490\nAm 23.11.2026 um 10:00 schrieb Rallyjudge <judge@example.test>:\n> x\n", "P490"},
		// client-mails: Zoho frames its attribution in dashes, without a colon; it was read
		// as cards ("a sixth card")
		{"zoho attribution above a quote", "P490\n\n---- On Mon, 23 Nov 2026 10:04:00 +0000 Rallyjudge <judge@example.test> wrote ---\n\n> x\n", "P490"},
		{"zoho attribution above an unprefixed original", "P490\n---- On Mon, 23 Nov 2026 10:04:00 +0000 Rallyjudge <judge@example.test> wrote ----\nsecret YOUR-SECRET\n", "P490"},
		{"a dash-framed line that is no attribution stays", "P490\n---- orders wrote ----\n", "P490|---- orders wrote ----"},
		{"text after the signature block stays", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nP490\n-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\nP670\n", "|||P490||||P670"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.TrimSuffix(StripReply(tt.in), "\n")
			want := strings.ReplaceAll(tt.want, "|", "\n")
			if got != want {
				t.Errorf("StripReply(%q)\n got %q\nwant %q", tt.in, got, want)
			}
		})
	}
}

// FuzzStripReply: line n of the result is line n of the input (without an inline PGP
// signature's dash-escape) or blank, and it never has more lines than the input.
func FuzzStripReply(f *testing.F) {
	for _, s := range []string{"P490\n> x\n", "On a\nb wrote:\n> c\n", "-- \nx", "____________\nFrom: a\nSent: b\n",
		"Sent from my iPhone\n", "* a@b 1:\n> x", "-----Original Message-----\n", "\n\n\n",
		"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n- ---\nP490\n-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripReply(s)
		in := strings.Split(s, "\n")
		out := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if got == "" {
			return
		}
		if len(out) > len(in) {
			t.Fatalf("more lines out (%d) than in (%d)", len(out), len(in))
		}
		for i, l := range out {
			// a line of an inline PGP signature loses its dash-escape ("- -- " is "-- ")
			if l != "" && l != in[i] && "- "+l != in[i] {
				t.Fatalf("line %d: %q is not the input's %q", i+1, l, in[i])
			}
		}
	})
}

// BenchmarkStripReplyHostile: the largest text Extract keeps (256 KiB) in shapes that
// would make a careless stripper quadratic (blank runs, rules, header blocks, one long
// line). Every shape is read in linear time.
func BenchmarkStripReplyHostile(b *testing.B) {
	shapes := map[string]string{
		"blank lines":   strings.Repeat("\n", 256<<10),
		"rules":         strings.Repeat("____________\n\n\n", 16<<10),
		"header blocks": strings.Repeat("From: x\n\n\n\n\n", 16<<10),
		"one line":      strings.Repeat("a", 256<<10),
		"quotes":        strings.Repeat("> x\n", 64<<10),
		"colon lines":   strings.Repeat("Am 23.11.2026 um 10:04 schrieb R <\nj@x.test>:\n", 5<<10),
	}
	for name, s := range shapes {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				StripReply(s)
			}
		})
	}
}

// TestForwarded: a message forwarded inline, as Gmail, Thunderbird and Apple Mail write
// it: the forwarded From and the line its body starts at.
func TestForwarded(t *testing.T) {
	tests := []struct {
		name, in, from string
		body           int // -1: none
	}{
		{"gmail", "note\n\n---------- Forwarded message ---------\nFrom: Zoe Zed <zoe@example.test>\nDate: Mon, 23 Nov 2026 at 13:41\nSubject: [RR spring] orders\nTo: <x@example.test>\n\n\nP490\n", "zoe@example.test", 7},
		{"thunderbird", "-------- Forwarded Message --------\nSubject: \t[RR spring] orders\nDate: \tMon, 23 Nov 2026 13:41:00 +0100\nFrom: \tZoe Zed <zoe@example.test>\nTo: \tx@example.test\n\nP490\n", "zoe@example.test", 5},
		{"apple mail", "Begin forwarded message:\n\nFrom: Zoe Zed <zoe@example.test>\nSubject: orders\nDate: 23 November 2026\nTo: x@example.test\n\nP490\n", "zoe@example.test", 6},
		{"a marker in a quote", "> ---------- Forwarded message ---------\n> From: zoe@example.test\n> Date: x\n", "", -1},
		{"no header block", "---------- Forwarded message ---------\nP490\n", "", -1},
		{"no forward", "P490\n-----Original Message-----\nFrom: zoe@example.test\nSent: x\n", "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, body, ok := Forwarded(tt.in)
			if !ok {
				from, body = "", -1
			}
			if from != tt.from || body != tt.body {
				t.Errorf("Forwarded = %q, %d; want %q, %d", from, body, tt.from, tt.body)
			}
		})
	}
}

// TestClientSignatureRunes: clientSignatureFirst holds the first rune of every client
// signature, clientSignatureLast the last of every ending.
func TestClientSignatureRunes(t *testing.T) {
	for _, p := range clientSignatures {
		if r, _ := utf8.DecodeRuneInString(p); !strings.ContainsRune(clientSignatureFirst, r) {
			t.Errorf("%q starts with %q, not in clientSignatureFirst", p, r)
		}
	}
	for _, e := range clientSignatureEnds {
		if r, _ := utf8.DecodeLastRuneInString(e); !strings.ContainsRune(clientSignatureLast, r) {
			t.Errorf("%q ends in %q, not in clientSignatureLast", e, r)
		}
	}
}

// FuzzReplyLines: the checks made before the patterns and the lowering of a line
// (inlineAttribution, isClientSignature) answer as the patterns and the lowering do.
func FuzzReplyLines(f *testing.F) {
	for _, s := range []string{"On Mon, 23 Nov 2026 at 10:00, Judge <j@x.test> wrote: robot", "Sent from my iPhone", "SENT FROM MY IPHONE",
		"iPhoneから送信", "İphone'umdan gönderildi", "ORİGİNAL MESSAGE", "Исходное сообщение", "Original Message", "\u212aelvin", "ſent from my phone", "robot Alice", "", "ON 2026 a@b WROTE: x", "\xffx", "x\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		tr := strings.TrimSpace(l)
		if len(tr) > maxHeaderLine {
			tr = tr[:maxHeaderLine]
		}
		if got, want := inlineAttribution(l), attributionInline.MatchString(tr); got != want {
			t.Fatalf("inlineAttribution(%q) = %v, the pattern says %v", l, got, want)
		}
		want := false
		if l != "" && len(l) <= 120 {
			low := strings.ToLower(l)
			for _, p := range clientSignatures {
				want = want || strings.HasPrefix(low, p)
			}
			for _, e := range clientSignatureEnds {
				want = want || strings.HasSuffix(low, e) && utf8.RuneCountInString(low) <= 40
			}
		}
		low := strings.ToLower(l)
		if m, ok := lowerMarker(l); ok != originalMarkers[low] || ok && m != low {
			t.Fatalf("lowerMarker(%q) = %q, %v; lowered it is %q, %v", l, m, ok, low, originalMarkers[low])
		}
		if got := isClientSignature(l); got != want {
			t.Fatalf("isClientSignature(%q) = %v, lowered it is %v", l, got, want)
		}
	})
}

// TestMarkersFit: every marker of ASCII fits lowerMarker's buffer.
func TestMarkersFit(t *testing.T) {
	for m := range originalMarkers {
		if len(m) > 32 && strings.IndexFunc(m, func(r rune) bool { return r >= utf8.RuneSelf }) < 0 {
			t.Errorf("%q is longer than lowerMarker's buffer", m)
		}
	}
}
