package mail

import (
	"os"
	"strings"
	"testing"
)

func TestIsAutomatic(t *testing.T) {
	const body = "\r\n\r\nrobot: Twonky\r\n"
	tests := []struct {
		name   string
		header string
		auto   bool
		reason string // a part of the reason
	}{
		{"plain human mail", "From: alice@example.test\r\nSubject: orders", false, ""},
		{"auto-submitted no", "From: alice@example.test\r\nAuto-Submitted: no", false, ""},
		{"auto-submitted no with comment", "From: alice@example.test\r\nAuto-Submitted: No (human)", false, ""},
		{"auto-replied", "From: alice@example.test\r\nAuto-Submitted: auto-replied", true, "Auto-Submitted"},
		{"auto-generated", "From: alice@example.test\r\nAuto-Submitted: auto-generated", true, "Auto-Submitted"},
		{"auto-notified", "From: alice@example.test\r\nAuto-Submitted: auto-notified; owner-email=x", true, "auto-notified"},
		{"precedence bulk", "From: alice@example.test\r\nPrecedence: bulk", true, "Precedence"},
		{"precedence junk", "From: alice@example.test\r\nPrecedence: JUNK", true, "Precedence"},
		{"precedence list", "From: alice@example.test\r\nPrecedence: list", true, "Precedence"},
		{"precedence first-class", "From: alice@example.test\r\nPrecedence: first-class", false, ""},
		{"x-autoreply", "From: alice@example.test\r\nX-Autoreply: yes", true, "X-Autoreply"},
		{"x-autorespond", "From: alice@example.test\r\nX-Autorespond: whatever", true, "X-Autorespond"},
		{"exchange oof", "From: alice@example.test\r\nX-Auto-Response-Suppress: OOF, AutoReply", true, "Suppress"},
		{"list-id", "From: alice@example.test\r\nList-Id: <rr.lists.example.test>", true, "List-Id"},
		{"empty return-path", "Return-Path: <>\r\nFrom: alice@example.test", true, "Return-Path"},
		{"return-path set", "Return-Path: <alice@example.test>\r\nFrom: alice@example.test", false, ""},
		{"mailer-daemon", "From: Mail Delivery System <MAILER-DAEMON@example.test>", true, "MAILER-DAEMON"},
		{"postmaster", "From: postmaster@example.test", true, "postmaster"},
		{"report", "From: alice@example.test\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=x", true, "multipart/report"},
		{"rallyjudge own", "From: orders@example.test\r\nX-Rallyjudge: 0.1.0", true, "rallyjudge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Extract([]byte(tt.header + body))
			if err != nil {
				t.Fatal(err)
			}
			auto, reason := IsAutomatic(m)
			if auto != tt.auto || !strings.Contains(reason, tt.reason) {
				t.Errorf("IsAutomatic = %v %q, want %v with %q", auto, reason, tt.auto, tt.reason)
			}
			if auto == (reason == "") {
				t.Errorf("reason %q does not match verdict %v", reason, auto)
			}
		})
	}
}

func TestIsAutomaticSamples(t *testing.T) {
	for _, f := range []string{"bounce", "vacation", "own"} {
		raw, err := os.ReadFile("testdata/auto/" + f + ".eml")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Extract(raw)
		if err != nil {
			t.Fatal(err)
		}
		if auto, reason := IsAutomatic(m); !auto {
			t.Errorf("%s: not recognised as automatic (%q)", f, reason)
		}
	}
	// and no human sample is taken for a machine
	for _, f := range []string{"alternative_qp", "reply_quoted", "html_only", "attach_yaml"} {
		raw, _ := os.ReadFile("testdata/extract/" + f + ".eml")
		m, err := Extract(raw)
		if err != nil {
			t.Fatal(err)
		}
		if auto, reason := IsAutomatic(m); auto {
			t.Errorf("%s: taken for automatic: %s", f, reason)
		}
	}
}
