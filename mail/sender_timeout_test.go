package mail

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// TestSenderTimeoutBoundsEveryStage: the judge's sender hands the SMTP client a context
// without a deadline (a mail in hand is finished on a stop), so SenderConfig.Timeout alone
// must end a dialogue with a server that stops answering — at any stage, the final "."
// included (issue 14 item 2: a hung SMTP server must not hold the sender for ever).
func TestSenderTimeoutBoundsEveryStage(t *testing.T) {
	for _, freezeAt := range []string{"greeting", "EHLO", "MAIL", "RCPT", "DATA", "."} {
		t.Run(freezeAt, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			done := make(chan struct{})
			defer close(done)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				freeze := func() { <-done }
				if freezeAt == "greeting" {
					freeze()
					return
				}
				w := bufio.NewWriter(c)
				say := func(s string) { w.WriteString(s + "\r\n"); w.Flush() }
				say("220 frozen.test ESMTP")
				r := bufio.NewReader(c)
				inData := false
				for {
					l, err := r.ReadString('\n')
					if err != nil {
						return
					}
					l = strings.TrimRight(l, "\r\n")
					if inData {
						if l == "." {
							if freezeAt == "." {
								freeze()
								return
							}
							say("250 ok")
							inData = false
						}
						continue
					}
					verb := strings.ToUpper(strings.Fields(l + " x")[0])
					if strings.HasPrefix(verb, "MAIL") {
						verb = "MAIL"
					}
					if verb == freezeAt || verb == "HELO" && freezeAt == "EHLO" {
						freeze()
						return
					}
					switch verb {
					case "EHLO", "HELO":
						say("250 frozen.test")
					case "DATA":
						say("354 go on")
						inData = true
					case "QUIT":
						say("221 bye")
						return
					default:
						say("250 ok")
					}
				}
			}()
			s, err := NewSender(SenderConfig{Addr: ln.Addr().String(), Timeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = s.Send(context.Background(), "judge@example.test", []string{"alice@example.test"}, []byte("Subject: x\r\n\r\nhello\r\n"))
			if err == nil || IsPermanent(err) {
				t.Fatalf("a server frozen at %s: err %v, want a temporary failure", freezeAt, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("a server frozen at %s held the sender %v (timeout 300ms)", freezeAt, d)
			}
		})
	}
}
