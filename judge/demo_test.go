package judge

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
)

// signalWriter cancels when the demo prints the first turn's line.
type signalWriter struct {
	mu     sync.Mutex
	b      strings.Builder
	cancel context.CancelFunc
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), "turn  1:") {
		w.cancel()
	}
	return len(p), nil
}

// An interrupted demo still saves the mails it sent (the bug: demo --play --save-mail
// saved nothing, since the only way out was an interrupt and the save came at the end).
func TestDemoInterruptedSavesMail(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &signalWriter{cancel: cancel}
	_, _ = RunDemo(ctx, DemoOptions{Course: "sprint", Seed: 3, Turns: 10, SaveMail: dir, Out: out})
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("an interrupted demo saved no mail; it printed:\n%s", out.b.String())
	}
	if !strings.Contains(out.b.String(), "mails saved in") {
		t.Errorf("the demo did not say where the mails are:\n%s", out.b.String())
	}
}
