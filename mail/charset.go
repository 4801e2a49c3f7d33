package mail

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Text whose bytes the MIME labels do not describe, read as a mail client shows it.

// fromUTF16BOM decodes b when it starts with a UTF-16 byte-order mark (FF FE or FE FF):
// Windows Notepad saves "Unicode" files so, and mail clients attach them as text/plain
// with no charset at all. ok is false for any other b.
func fromUTF16BOM(b []byte) (s string, ok bool) {
	if len(b) < 2 || len(b)%2 != 0 {
		return "", false
	}
	var le bool
	switch {
	case b[0] == 0xFF && b[1] == 0xFE:
		le = true
	case b[0] == 0xFE && b[1] == 0xFF:
	default:
		return "", false
	}
	u := make([]uint16, 0, len(b)/2-1)
	for i := 2; i+1 < len(b); i += 2 {
		if le {
			u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
		} else {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
	}
	return string(utf16.Decode(u)), true
}

// cp1252High are the characters Windows-1252 gives the bytes 0x80 to 0x9F (0 where it
// gives none); every other byte is the Latin-1 character of its value.
var cp1252High = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}

// fromWindows1252 reads b, which is not UTF-8, as Windows-1252: what a part labelled
// with a charset nobody knows ("unknown-8bit", "x-user-defined"), or mislabelled as
// UTF-8 or US-ASCII, almost always is (mutt, old webmail, scripts). A byte the code page
// leaves undefined becomes U+FFFD.
func fromWindows1252(b []byte) string {
	r := make([]rune, 0, len(b))
	for _, c := range b {
		switch {
		case c < 0x80 || c >= 0xA0:
			r = append(r, rune(c))
		case cp1252High[c-0x80] != 0:
			r = append(r, cp1252High[c-0x80])
		default:
			r = append(r, utf8.RuneError)
		}
	}
	return string(r)
}
