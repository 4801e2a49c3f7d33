package judge

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/roborally/demobots"
	"github.com/rallyjudge/rallyjudge/store"
)

// signalWriter interrupts the demo once it has printed the first turn's line and its
// outbox has sent a mail (the event the test needs: on a loaded machine the sender may
// not have sent anything yet when the turn's line appears).
type signalWriter struct {
	mu      sync.Mutex
	b       strings.Builder
	cancel  context.CancelFunc
	db      string
	started bool
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if !w.started && strings.Contains(w.b.String(), "turn  1:") {
		w.started = true
		go w.cancelOnceSent()
	}
	return len(p), nil
}

func (w *signalWriter) cancelOnceSent() {
	defer w.cancel()
	st, err := store.Open(w.db)
	if err != nil {
		return
	}
	defer st.Close()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		sent := false
		_ = st.View(context.Background(), func(tx *store.Tx) error {
			ms, err := tx.OutboxByGame(1, -1)
			for _, m := range ms {
				sent = sent || m.Status == store.OutboxSent
			}
			return err
		})
		if sent {
			return
		}
	}
}

// An interrupted demo still saves the mails it sent (the bug: demo --play --save-mail
// saved nothing, since the only way out was an interrupt and the save came at the end).
func TestDemoInterruptedSavesMail(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := filepath.Join(t.TempDir(), "demo.db")
	out := &signalWriter{cancel: cancel, db: db}
	_, _ = RunDemo(ctx, DemoOptions{Game: demobots.New(demobots.Options{Course: "sprint"}), Seed: 3, Turns: 10, DB: db, SaveMail: dir, Out: out})
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
