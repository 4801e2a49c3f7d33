package judge

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// --save-mail keeps every mail the demo sent, a game's and none's: the reply to LIST has
// no game (the bug: only game 1's mails were saved, and the LIST reply was missing).
func TestDemoSaveMailKeepsEveryMail(t *testing.T) {
	f := newFixture(t) // game 1, its welcomes not sent yet
	ctx := context.Background()
	for _, m := range []store.OutboxMail{
		{MessageID: "list@x", To: []string{"zoe@example.test"}, From: "judge@example.test", Kind: "list", Raw: []byte("Subject: LIST\r\n\r\ngames\r\n"), Turn: -1},
		{MessageID: "notice@x", To: []string{"zoe@example.test"}, From: "judge@example.test", Kind: "notice", GameID: 1, Turn: -1, Raw: []byte("Subject: notice\r\n\r\nhi\r\n")},
	} {
		m.Created, m.NextAttempt = f.now, f.now
		if err := f.j.Store.Tx(ctx, func(tx *store.Tx) error {
			got, _, err := tx.Enqueue(m)
			if err != nil {
				return err
			}
			return tx.MarkSent(got.ID, f.now)
		}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	var res DemoResult
	if err := f.j.demoSaveMail(dir, io.Discard, &res); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range files {
		names = append(names, e.Name())
	}
	if len(files) != 2 || res.Sent != 2 {
		t.Errorf("saved %q, counted %d sent; want the LIST reply and the game's notice", names, res.Sent)
	}
}
