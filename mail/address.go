package mail

import "strings"

// ValidAddress reports whether s is one plain address fit for an SMTP envelope: a
// dot-atom local part, "@", a domain of letters, digits and hyphens in dot-separated
// labels (RFC 5321 4.1.2 Mailbox, without quoted local parts, address literals or
// non-ASCII). Anything else — a display name, angle brackets, spaces, a second address,
// ESMTP parameters such as NOTIFY= or ORCPT= smuggled into a header — is refused: such
// text is never passed to MAIL FROM or RCPT TO (issue 14: an unparseable From reached
// RCPT TO and Postfix honoured the parameters in it).
func ValidAddress(s string) bool {
	if len(s) == 0 || len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at > 64 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for i := 0; i < len(local); i++ {
		c := local[i]
		if !isAtext(c) && c != '.' {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isAtext is RFC 5322 atext: the characters of an unquoted local part.
func isAtext(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}
