package mail

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The outputs of Extract and Compose over the corpora, the fuzz seeds and variants made
// from them, as they were before the fast paths of issue 24 item 7: a fast path that
// reads or writes a simple mail a shorter way must give, byte for byte, what the full
// path gave. testdata/same/*.golden hold a digest of each output, by name; -update
// rewrites them (only ever from a tree without the change under test).

// sameMails are the mails TestExtractSame reads: every mail of the corpora, the fuzz
// seeds, and variants of them.
func sameMails(t *testing.T) (names []string, raws map[string][]byte) {
	raws = map[string][]byte{}
	add := func(name string, raw []byte) {
		if _, dup := raws[name]; dup {
			t.Fatalf("two mails named %s", name)
		}
		names = append(names, name)
		raws[name] = raw
	}
	files, err := filepath.Glob("testdata/*/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	var bases [][]byte
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		add(p, b)
		bases = append(bases, b)
	}
	// the texts of the fuzz corpora, as the bodies of mails
	seeds, err := filepath.Glob("testdata/fuzz/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range seeds {
		for i, s := range fuzzStrings(t, p) {
			add(fmt.Sprintf("%s#%d", p, i), []byte(string(orderHeader)+"\r\n"+s))
			add(fmt.Sprintf("%s#%d/raw", p, i), []byte(s))
		}
	}
	add("order", orderMail)
	bases = append(bases, orderMail)
	for _, v := range dateValues {
		add("date "+strconv.Quote(v), []byte("Date: "+v+"\r\nFrom: a@example.test\r\n\r\nx\r\n"))
	}
	// variants of the order mail, a header field at a time
	fields := map[string][]string{
		"From": {"<alice@example.test>", "alice@example.test", "Alice <alice@example.test>", "\"Alice L.\" <alice@example.test>",
			"=?utf-8?q?Al=C3=AFce?= <alice@example.test>", "<alice@EXAMPLE.test>", "<a.b@c.d.e>", "<a..b@c.d>", "<.a@c.d>",
			"<a.@c.d>", "<a@c..d>", "<a@.c.d>", "<a@c.d.>", "<a@[127.0.0.1]>", "<\"a b\"@c.d>", "<a@c.d> (Alice)", "(c) <a@c.d>",
			"<a@c.d>, <b@c.d>", "<a@c.d>,", "<a@c.d", "a@c.d>", "<>", "<@c.d>", "<a@>", "<a@c@d>", "<a+b_c-d~e!f#g$h%i&j'k*l/m=n?o^p`q{r|s}t@c-d.e>",
			"<aé@c.d>", "<a@cé.d>", "< a@c.d>", "<a@c.d >", "<a @c.d>", "<a\t@c.d>", "<a@c.d>x", "undisclosed-recipients:;",
			"group: <a@c.d>;", "<a(b)@c.d>", "<a@c.d\x00>", "<\x7f@c.d>", "Mr. <a@c.d>", "<A@B.C>"},
		"Content-Type": {"text/plain; charset=utf-8", "text/plain; charset=\"utf-8\"", "text/plain; charset=UTF-8", "TEXT/Plain; Charset=utf-8",
			"text/plain;charset=utf-8", "text/plain ; charset=utf-8", "text/plain; charset=utf-8;", "text/plain; charset=utf-8; format=flowed",
			"text/plain; format=flowed; delsp=yes; charset=us-ascii", "text/plain; charset=utf-8; charset=latin1", "text/plain; charset=iso-8859-1",
			"text/plain", "text/plain;", "text", "text/", "/plain", "text/plain; charset", "text/plain; charset=", "text/plain; =utf-8",
			"text/plain; charset=utf-8 (comment)", "text/plain; charset*=utf-8''%e2%82%ac", "text/plain; name=orders.txt", "text/html; charset=utf-8",
			"text/plain; charset=unknown-8bit", "multipart/mixed; boundary=x", "text/plain; charset=utf\x00-8", "text/plain; charset=ütf-8",
			"text/plain\t; charset=utf-8", "text/plain; CHARSET=utf-8", "text/plain; charset=utf-8 ", " text/plain; charset=utf-8"},
		"Subject": {"[RR tp] standing orders 17", "  [RR tp]  orders  ", "\t[RR tp]\torders", "=?utf-8?q?=5BRR_tp=5D_orders?=", "=?bogus?q?x?=",
			"", "orders=?", "orders\x00", "orders é", "a\u00a0b", "a\u2003b"},
		"Message-Id": {"<17.alice.example.test@client.test>", "17.alice@client.test", "<a@b> <c@d>", "<a@b", "", "<>", " <a@b> ", "<a b@c>"},
		"Date":       {"Sun, 01 Mar 2026 12:00:00 +0000", "Sun, 1 Mar 2026 12:00:00 +0100", "1 Mar 2026 12:00:00 +0000", "garbage"},
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range fields {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		for i, v := range fields[k] {
			add(fmt.Sprintf("order %s %d", k, i), withField(orderMail, k, v))
		}
	}
	for _, k := range []string{"To", "Cc", "In-Reply-To", "References"} {
		for i, v := range fields["From"] {
			add(fmt.Sprintf("order %s %d", k, i), withField(orderMail, k, v))
		}
	}
	for i, v := range fields["Message-Id"] {
		add(fmt.Sprintf("order References id %d", i), withField(orderMail, "References", v))
		add(fmt.Sprintf("order In-Reply-To id %d", i), withField(orderMail, "In-Reply-To", v))
	}
	// the order mail's shape around the header
	lf := []byte(strings.ReplaceAll(string(orderMail), "\r\n", "\n"))
	add("order LF", lf)
	add("order folded", []byte(strings.Replace(string(orderMail), "Subject: [RR tp]", "Subject: [RR tp]\r\n", 1)))
	add("order folded tab", []byte(strings.Replace(string(orderMail), "Subject: [RR tp]", "Subject: [RR tp]\r\n\t", 1)))
	add("order no body", []byte(strings.SplitAfter(string(orderMail), "\r\n\r\n")[0]))
	add("order header only", []byte(strings.TrimSuffix(strings.SplitAfter(string(orderMail), "\r\n\r\n")[0], "\r\n")))
	add("order leading space", append([]byte(" "), orderMail...))
	add("order lowercase keys", []byte(strings.NewReplacer("Date:", "date:", "From:", "FROM:", "Content-Type:", "content-type:").Replace(string(orderMail))))
	add("order key space", []byte(strings.Replace(string(orderMail), "Subject:", "Subject :", 1)))
	add("order key bad", []byte(strings.Replace(string(orderMail), "Subject:", "Sub ject:", 1)))
	add("order empty key", []byte(strings.Replace(string(orderMail), "Subject:", ":", 1)))
	add("order no colon", []byte(strings.Replace(string(orderMail), "Subject:", "Subject", 1)))
	add("order CR in header", []byte(strings.Replace(string(orderMail), "Subject: [RR", "Subject: \r[RR", 1)))
	add("order CRCRLF in header", []byte(strings.Replace(string(orderMail), "\r\nTo:", "\r\r\nTo:", 1)))
	add("order twice", []byte(strings.Replace(string(orderMail), "Subject:", "Subject: first\r\nSubject:", 1)))
	add("order qp", withField(orderMail, "Content-Transfer-Encoding", "quoted-printable"))
	add("order base64", []byte(strings.Replace(string(withField(orderMail, "Content-Transfer-Encoding", "base64")), "robot Alice", "cm9ib3QgQWxpY2U=", 1)))
	add("order 7bit", withField(orderMail, "Content-Transfer-Encoding", "7bit"))
	add("order x-rot13", withField(orderMail, "Content-Transfer-Encoding", "x-rot13"))
	for i, cte := range []string{"8bit", "8BIT", "binary", "Binary", " 7bit", "7bit ", "quoted-printable", ""} {
		for j, ct := range []string{"", "text/plain; charset=latin1", "text/plain; charset=iso-8859-1", "text/plain; charset=US-ASCII", "text/html", "application/octet-stream",
			"text/plain; format=flowed", "multipart/mixed; boundary=b", "message/rfc822", "text/plain; charset=utf-8; delsp=yes", "image/png"} {
			b := withField(orderMail, "Content-Transfer-Encoding", cte)
			if ct == "" {
				b = []byte(strings.Replace(string(b), "Content-Type: text/plain; charset=utf-8\r\n", "", 1))
			} else {
				b = withField(b, "Content-Type", ct)
			}
			add(fmt.Sprintf("order cte %d ct %d", i, j), b)
		}
	}
	for i, cd := range []string{"inline", "attachment", "attachment; filename=orders.txt", "inline; filename=orders.yaml", "", "bogus;;", "attachment; filename=\"=?utf-8?q?a=C3=A9.txt?=\""} {
		add(fmt.Sprintf("order disposition %d", i), withField(orderMail, "Content-Disposition", cd))
	}
	add("order two types", []byte(strings.Replace(string(orderMail), "Content-Type:", "Content-Type: text/html\r\nContent-Type:", 1)))
	add("order latin1 body", []byte(string(withField(orderMail, "Content-Type", "text/plain; charset=iso-8859-1"))+"Gr\xfc\xdfe\r\n"))
	add("order utf-16 body", []byte(string(orderHeader)+"\r\n\xff\xfeP\x004\x00"))
	big := strings.Repeat("X-Filler: "+strings.Repeat("f", 70)+"\r\n", 3600) // about 290 KB, over the header limit
	add("order huge header", append([]byte(big), orderMail...))
	add("order big header", append([]byte(big[:252<<10-len(big)%82]), orderMail...))
	for _, n := range []int{4000, 4096, 8000} {
		add(fmt.Sprintf("order header %d", n), append([]byte("X-Filler: "+strings.Repeat("f", n)+"\r\n"), orderMail...))
	}
	// bodies that reply, sign and quote
	for i, body := range []string{
		"On Mon, 23 Nov 2026 at 10:00, Judge <j@x.test> wrote: robot Alice", "on 2026 a@b wrote: x", "Op 1 x@y schreef: z",
		"robot Alice\r\n\r\nSent from my iPhone", "robot Alice\r\nSENT FROM MY IPHONE", "robot Alice\r\niPhoneから送信", "robot Alice\r\nİphone'umdan gönderildi",
		"robot Alice\r\n-- \r\nAlice", "robot Alice\r\n> quoted\r\n", "robot Alice\r\nFrom: a@b\r\nSent: today\r\n", "Von meinem iPhone gesendet",
		"\u212aelvin", "ſent from my phone", "Ｏn Monday", "ON 2026 a@b WROTE: x", "robot Alice\r\n\x00\r\n", "\xff\xfe",
		"-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA256\r\n\r\nrobot Alice\r\n-----BEGIN PGP SIGNATURE-----\r\nx\r\n-----END PGP SIGNATURE-----\r\n",
		"robot Alice\r\nИсходное сообщение\r\nx", "robot Alice\r\n-----ORİGİNAL MESSAGE-----\r\nx", "robot Alice\r\n----- Original Message -----\r\nx",
		"robot Alice\r\n-----Ursprüngliche Nachricht-----\r\nVon: a@b\r\nGesendet: heute\r\n", "robot Alice\r\nOriginal Message\r\nx",
		"robot Alice\r\nBegin forwarded message:\r\n\r\nFrom: a@b\r\nDate: x\r\n", "robot Alice\r\nBEGIN FORWARDED MESSAGE:\r\nx",
		"robot Alice\r\n" + strings.Repeat("ORIGINAL MESSAGE ", 3) + "\r\n", "robot Alice\r\nLähetetty iPhonesta", "robot Alice\r\nОтправлено с iPhone",
		"robot Alice\r\n发自我的iPhone", "robot Alice\r\nGesendet von meinem Handy", "robot Alice\r\nsent via the web", "robot Alice\r\nSentinel",
		"robot Alice\r\nLe lun. 23 nov. 2026 à 10:04, J <j@x.test> a écrit : blah", "robot Alice\r\nEl 23 nov 2026, a@b escribió: x",
		"robot Alice\r\nDEN 2026 a@b SKREV: x", "robot Alice\r\nIl 2026 a@b scrisse: x", "robot Alice\r\nopen the door: now",
		"robot Alice\r\n\u212aelvin sent from my phone", "secret x\r\nif damage > 4 then power down\r\n", "robot Alice\r\nİPHONE'UMDAN GÖNDERİLDİ",
		"robot Alice\r\n\xc4\xb0", "robot Alice\r\nx\xff", "robot Alice\r\n\xffsent from my phone",
	} {
		add(fmt.Sprintf("order body %d", i), []byte(string(orderHeader)+"\r\n"+body))
	}
	// random damage: bytes that matter to a reader put in at random places
	r := rand.New(rand.NewPCG(24, 7))
	bits := []string{"\r", "\n", "\r\n", " ", "\t", ":", "\x00", "=?", "?=", ";", "\"", "<", ">", "@", "(", ")", ",", "é", "\xff", "=", "\\", ".", "\r\n ", "\n\n", "--", "On ", "> "}
	for i := 0; i < 3000; i++ {
		b := bases[r.IntN(len(bases))]
		if i%2 == 0 {
			b = orderMail
		}
		b = slices.Clone(b)
		for n := 1 + r.IntN(3); n > 0; n-- {
			at := r.IntN(len(b) + 1)
			if i%3 == 0 { // mostly in the header, where the fast paths are
				at = r.IntN(min(len(b), 400) + 1)
			}
			b = slices.Insert(b, at, []byte(bits[r.IntN(len(bits))])...)
		}
		add(fmt.Sprintf("damaged %d", i), b)
	}
	// the order mail as the judge's throughput test writes it (quoted-printable), its
	// bodies, and damaged
	add("order as the judge sends it", orderMailQP)
	qpHeader := string(orderMailQP[:strings.Index(string(orderMailQP), "\r\n\r\n")+4])
	for i, body := range []string{"robot Alice \r\nsecret x\r\n", "robot Alice\t\r\n", "robot Alice\r\nsecret x ", "a=3Db\r\n", "soft=\r\nbreak\r\n", "a\rb\r\n",
		"a\r\r\nb", "Gr=C3=BC=C3=9Fe\r\n", "Gr\xc3\xbc\xc3\x9fe\r\n", "a\x00b", "a\nb\n", "", "\r\n", " \r\n", "=", "a=\r\n", "a\x7fb", "tab\there\r\n",
		"On Mon, 23 Nov 2026 at 10:00, Judge <j@x.test> wrote: robot Alice", "robot Alice\r\n-- \r\nAlice\r\n"} {
		add(fmt.Sprintf("order qp body %d", i), []byte(qpHeader+body))
	}
	rq := rand.New(rand.NewPCG(24, 8))
	for i := 0; i < 1000; i++ {
		b := slices.Clone(orderMailQP)
		for n := 1 + rq.IntN(3); n > 0; n-- {
			at := rq.IntN(len(b) + 1)
			if i%2 == 0 {
				at = len(qpHeader) + rq.IntN(len(b)-len(qpHeader)+1) // in the body
			}
			b = slices.Insert(b, at, []byte(bits[rq.IntN(len(bits))])...)
		}
		add(fmt.Sprintf("damaged qp %d", i), b)
	}
	return names, raws
}

// orderHeader is orderMail's header, without the blank line.
var orderHeader = orderMail[:strings.Index(string(orderMail), "\r\n\r\n")+2]

// withField is raw with the field k set to v: the field replaced where raw has it, or
// added at the top.
func withField(raw []byte, k, v string) []byte {
	s := string(raw)
	head, body, _ := strings.Cut(s, "\r\n\r\n")
	lines := strings.Split(head, "\r\n")
	done := false
	for i, l := range lines {
		if strings.HasPrefix(strings.ToLower(l), strings.ToLower(k)+":") {
			lines[i], done = k+": "+v, true
		}
	}
	if !done {
		lines = append([]string{k + ": " + v}, lines...)
	}
	return []byte(strings.Join(lines, "\r\n") + "\r\n\r\n" + body)
}

// fuzzStrings are the string and []byte values of a file of a native fuzzer's corpus.
func fuzzStrings(t *testing.T, path string) (out []string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		for _, p := range []string{"string(", "[]byte("} {
			if v, ok := strings.CutPrefix(l, p); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// dumpMessage writes out every field of m (and of the mails forwarded in it).
func dumpMessage(b *strings.Builder, m *Message, err error) {
	if err != nil {
		fmt.Fprintf(b, "error: %v\n", err)
	}
	if m == nil {
		b.WriteString("nil\n")
		return
	}
	name, off := m.Date.Zone()
	fmt.Fprintf(b, "From %q FromName %q To %q Subject %q MessageID %q InReplyTo %q References %q\n",
		m.From, m.FromName, m.To, m.Subject, m.MessageID, m.InReplyTo, m.References)
	fmt.Fprintf(b, "Date %s %q %d %q zero %v\n", m.Date.Format(time.RFC3339Nano), name, off, m.Date.Location().String(), m.Date.IsZero())
	fmt.Fprintf(b, "ContentType %q Flowed %v Source %q SourceName %q Encrypted %v Size %d parts %d\n",
		m.ContentType, m.Flowed, m.Source, m.SourceName, m.Encrypted, m.Size, m.parts)
	fmt.Fprintf(b, "Text %q\nStripped %q\nAttachments %+v\nWarnings %q\n", m.Text, m.Stripped, m.Attachments, m.Warnings)
	var keys []string
	for f := m.Header.Fields(); f.Next(); {
		raw, rerr := f.Raw()
		fmt.Fprintf(b, "field %q %q %q %v\n", f.Key(), f.Value(), raw, rerr)
		if !slices.Contains(keys, f.Key()) {
			keys = append(keys, f.Key())
		}
	}
	for _, k := range keys {
		var vs []string
		for f := m.Header.FieldsByKey(k); f.Next(); {
			vs = append(vs, f.Value())
		}
		fmt.Fprintf(b, "key %q %q get %q has %v\n", k, vs, m.Header.Get(k), m.Header.Has(k))
	}
	fmt.Fprintf(b, "forwards %d\n", len(m.Forwards))
	for _, f := range m.Forwards {
		dumpMessage(b, f, nil)
	}
}

// TestExtractSame: Extract reads every mail of sameMails to the Message it did before.
func TestExtractSame(t *testing.T) {
	names, raws := sameMails(t)
	got := map[string]string{}
	dumps := map[string]string{}
	for _, name := range names {
		var b strings.Builder
		for _, lim := range []Limits{{}, {MaxSize: 64 << 10, MaxParts: 20, MaxDepth: 5, MaxText: 16 << 10}, {MaxText: 40}} {
			m, err := ExtractWithLimits(raws[name], lim)
			dumpMessage(&b, m, err)
		}
		dumps[name] = b.String()
		got[name] = fmt.Sprintf("%x", sha256.Sum256([]byte(b.String())))
	}
	checkDigests(t, "testdata/same/extract.golden", names, got, dumps)
}

// sameOutgoing are the mails TestComposeSame writes: the acknowledgement, the shapes of
// TestComposeRoundTrip and variants of their fields.
func sameOutgoing() (names []string, outs map[string]Outgoing) {
	outs = map[string]Outgoing{}
	add := func(name string, o Outgoing) {
		names = append(names, name)
		outs[name] = o
	}
	base := reportOutgoing() // (compose_test.go)
	add("ack", ackMail)
	add("base", base)
	withHTML := base
	withHTML.HTML = "<p>Turn 4</p><p>register 1: Twonky moves 2 &rarr; (3,4)</p><img src=\"cid:board-4@rallyjudge\">"
	add("html", withHTML)
	withInline := withHTML
	withInline.Inline = []Inline{{ContentID: "board-4@rallyjudge", ContentType: "image/png", Filename: "board.png", Data: []byte("\x89PNG\r\n\x1a\nfake")}}
	add("inline", withInline)
	withAttach := base
	withAttach.Attachments = []Inline{{ContentType: "text/html; charset=utf-8", Filename: "replay.html", Data: []byte("<p>x</p>")}}
	add("attach", withAttach)

	edits := map[string]func(o *Outgoing, v string){
		"From":            func(o *Outgoing, v string) { o.From = v },
		"FromName":        func(o *Outgoing, v string) { o.FromName = v },
		"To":              func(o *Outgoing, v string) { o.To = []string{v} },
		"ToName":          func(o *Outgoing, v string) { o.ToNames = []string{v} },
		"Subject":         func(o *Outgoing, v string) { o.Subject = v },
		"MessageID":       func(o *Outgoing, v string) { o.MessageID = v },
		"InReplyTo":       func(o *Outgoing, v string) { o.InReplyTo = v },
		"References":      func(o *Outgoing, v string) { o.References = strings.Fields(v) },
		"Version":         func(o *Outgoing, v string) { o.Version = v },
		"AutoSubmitted":   func(o *Outgoing, v string) { o.AutoSubmitted = v },
		"ListUnsubscribe": func(o *Outgoing, v string) { o.ListUnsubscribe = v },
		"Text":            func(o *Outgoing, v string) { o.Text = v },
	}
	values := []string{"", "a", "orders@example.test", "Re: [RR tp] standing orders 2", "rallyjudge", "Alice Liddell", "Liddell, Alice",
		"\"quoted\"", "back\\slash", "é", "Grüße ✓", "=?utf-8?q?x?=", "a\r\nb", "a\nb", "a\rb", "a\tb", "a\x00b", "  spaced  ",
		strings.Repeat("long ", 40), strings.Repeat("x", 100), strings.Repeat("é", 80), "a@b", "a b@c", "<a@b>", "a@b c@d", "id@x.test ref@y.test",
		"mailto:orders@example.test?subject=UNOBSERVE%20spring", "auto-generated", "(comment)", "a,b", "a;b", "a:b", "日本語の件名です",
		"x=y", "trailing space \nline", "tab\tline\n", "=3D\n", "line\n.\nend", strings.Repeat("w", 76) + "\n" + strings.Repeat("v", 77) + "\n",
		"no newline", "\n\n\n", "\r\n", "a\r\r\nb", "\xff\xfe", "ends in space ", "ends in tab\t", strings.Repeat("a", 73) + " \n",
		strings.Repeat("a", 75) + "=\n", strings.Repeat("é", 30) + "\n", "From here\n", ">quoted\n"}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range edits {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		for i, v := range values {
			for _, shape := range []string{"ack", "html"} {
				o := outs[shape]
				o.To, o.ToNames, o.References = slices.Clone(o.To), slices.Clone(o.ToNames), slices.Clone(o.References)
				edits[k](&o, v)
				add(fmt.Sprintf("%s %s %d", shape, k, i), o)
			}
		}
	}
	for i, d := range []time.Time{time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("X", -3*3600-1800)), time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2026, 7, 1, 12, 0, 0, 0, time.FixedZone("", 5*3600+45*60))} {
		o := ackMail
		o.Date = d
		add(fmt.Sprintf("ack date %d", i), o)
	}
	o := ackMail
	o.To, o.ToNames = []string{"a@b.test", "c@d.test", "e@f.test"}, []string{"A", "", "E, F"}
	add("ack three", o)
	o = ackMail
	o.References = []string{"r1@x", "r2@y"}
	add("ack refs", o)
	o = ackMail
	o.References, o.InReplyTo = []string{"r1@x"}, ""
	add("ack refs only", o)
	o = ackMail
	o.InReplyTo = ""
	add("ack new", o)
	r := rand.New(rand.NewPCG(24, 7))
	for i := 0; i < 300; i++ {
		o := ackMail
		var b strings.Builder
		for n := r.IntN(300); n > 0; n-- {
			b.WriteString(values[r.IntN(len(values))])
			if r.IntN(4) == 0 {
				b.WriteByte('\n')
			}
		}
		o.Text = b.String()
		add(fmt.Sprintf("ack text %d", i), o)
	}
	return names, outs
}

// boundary is a multipart boundary go-message made at random.
var boundary = regexp.MustCompile(`[0-9a-f]{60}`)

// TestComposeSame: Compose writes every mail of sameOutgoing to the bytes it did before
// (the random multipart boundaries aside).
func TestComposeSame(t *testing.T) {
	names, outs := sameOutgoing()
	got := map[string]string{}
	dumps := map[string]string{}
	for _, name := range names {
		raw, err := Compose(outs[name])
		d := fmt.Sprintf("%q %v", boundary.ReplaceAll(raw, []byte("BOUNDARY")), err)
		dumps[name] = d
		got[name] = fmt.Sprintf("%x", sha256.Sum256([]byte(d)))
	}
	checkDigests(t, "testdata/same/compose.golden", names, got, dumps)
}

// checkDigests compares the digests got, by name, with the golden file (or writes it
// with -update); where one differs it shows what the output is now.
func checkDigests(t *testing.T, golden string, names []string, got, dumps map[string]string) {
	t.Helper()
	if *update {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s %q\n", got[n], n)
		}
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(f), "\n"), "\n") {
		sum, q, _ := strings.Cut(l, " ")
		n, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("%s: %v", golden, err)
		}
		want[n] = sum
	}
	if len(want) != len(names) {
		t.Errorf("%s has %d outputs, the test makes %d", golden, len(want), len(names))
	}
	bad := 0
	for _, n := range names {
		if want[n] != got[n] {
			if bad++; bad <= 5 {
				t.Errorf("%s: the output differs; now:\n%s", n, dumps[n])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d outputs differ", bad, len(names))
	}
}
