package mail

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeFlowed(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		delSp bool
		want  string
	}{
		{"hard lines stay", "a\nb\n", false, "a\nb\n"},
		{"soft break joins", "1: P490   # register one, the card \nfrom my hand\n", false, "1: P490   # register one, the card from my hand\n"},
		{"delsp deletes the added space", "# Write a card of your hand after each free register's numb \ner, e.g. \"1: P490\".\n", true,
			"# Write a card of your hand after each free register's number, e.g. \"1: P490\".\n"},
		{"delsp=no keeps the space", "power down if \ndamage > 4\n", false, "power down if damage > 4\n"},
		{"space-stuffing removed", " From the judge\n >not a quote\n", false, "From the judge\n>not a quote\n"},
		{"signature separator is not flowed", "P490\n-- \nJürgen\n", false, "P490\n-- \nJürgen\n"},
		{"quoted flows within its depth", "> On Mon, the judge \n> wrote a long line\n>> deeper \n>> still\n", false,
			"> On Mon, the judge wrote a long line\n>> deeper still\n"},
		{"depth change ends a paragraph", "> quoted soft \nnew text\n", false, "> quoted soft\nnew text\n"},
		{"soft break at the end of the mail", "last line \n", false, "last line \n"},
		{"crlf", "a \r\nb\r\n", false, "a b\n"},
		{"empty quoted line", ">\n> x\n", false, ">\n> x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DecodeFlowed(tt.in, tt.delSp); got != tt.want {
				t.Errorf("DecodeFlowed(%q, %v) = %q, want %q", tt.in, tt.delSp, got, tt.want)
			}
		})
	}
}

// TestFlowedWrappedTemplateLineIsNotACard is the Thunderbird reply that was refused with
// "P490 is not in your hand": the report's sheet line, wrapped by format=flowed, was read as
// a comment and a card line.
func TestFlowedWrappedTemplateLineIsNotACard(t *testing.T) {
	raw := "From: Zoe <zoe@example.test>\r\nTo: judge@example.test\r\nSubject: Re: [RR spring] Turn 1 report\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" +
		"#orders\r\n# Write a card of your hand after each free register's number, e.g. \r\n\"1: P490\".\r\n1: P10\r\n#end\r\n"
	m, err := Extract([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.Stripped, "\n\"1: P490\"") || !strings.Contains(m.Stripped, "e.g. \"1: P490\".\n1: P10\n") {
		t.Errorf("the wrapped comment was not joined:\n%s", m.Stripped)
	}
}

func FuzzDecodeFlowed(f *testing.F) {
	for _, s := range []string{"a \nb\n", "> x \n> y\n>> z\n", " stuffed\n-- \nsig\n", "x \r\n", "", ">>>", "a \n\n"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, delSp bool) {
		got := DecodeFlowed(s, delSp)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out of valid input")
		}
		if strings.Count(got, "\n") > strings.Count(s, "\n")+1 {
			t.Fatalf("more lines out than in: %q -> %q", s, got)
		}
		// only quote markers and line ends are added: every other byte out was in
		if n := len(strings.NewReplacer(">", "", "\n", "", " ", "", "\r", "").Replace(got)); n > len(strings.NewReplacer(">", "", "\n", "", " ", "", "\r", "").Replace(s)) {
			t.Fatalf("text grew: %q -> %q", s, got)
		}
		// CRLF line ends go; a lone CR is text and left to normalizeText
		if !strings.Contains(strings.ReplaceAll(s, "\r\n", "\n"), "\r") && strings.Contains(got, "\r") {
			t.Fatalf("a CRLF survived: %q -> %q", s, got)
		}
	})
}
