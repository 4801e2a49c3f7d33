package roborally

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// Illustrate gives each mailing its report with the turn's pictures: the board, a still
// per register and the GIF, named by the mailing's Content-IDs and shown in its HTML; a
// player's copies ring the player's robot (not the public's, which are the same for
// every public mailing); without the position before the turn, the board alone. The
// text is Mail's.
func TestIllustrate(t *testing.T) {
	k := Kind{}
	cfg, err := k.Configure(map[string]string{"course": "sprint", "missed": "random"}) // programs played
	if err != nil {
		t.Fatal(err)
	}
	start, err := k.Start(cfg, []string{"Twonky", "Zoombot"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	moves := map[int]game.Move{}
	for _, s := range start.Due() {
		moves[s] = start.Autopilot(s, 1)
	}
	res, err := start.Play(moves, 1)
	if err != nil {
		t.Fatal(err)
	}
	ill := res.Next.(game.Illustrator)
	ms := []game.Mailing{
		{Kind: game.MailReport, Seat: 0, Game: "spring", Turn: 1, PictureIDs: "spring.1@x"},
		{Kind: game.MailReport, Seat: 1, Game: "spring", Turn: 1, PictureIDs: "spring.1@x"},
		{Kind: game.MailReport, Seat: -1, Part: game.PartPublic, Game: "spring", Turn: 1, PictureIDs: "spring.1@x"},
		{Kind: game.MailReport, Seat: -1, Part: game.PartPublic, Game: "spring", Turn: 1, PictureIDs: "spring.1@x"},
	}
	reps := ill.Illustrate(start, res.Events, ms)
	if len(reps) != len(ms) {
		t.Fatalf("%d reports for %d mailings", len(reps), len(ms))
	}
	for i, r := range reps {
		if want := ill.Mail(res.Events, ms[i]); r.Text != want.Text || r.Subject != want.Subject {
			t.Errorf("mailing %d: the text is not Mail's", i)
		}
		if len(r.Pictures) != 7 { // the board, five stills, the GIF
			t.Fatalf("mailing %d: %d pictures, want 7", i, len(r.Pictures))
		}
		for _, p := range r.Pictures {
			if !strings.HasSuffix(p.ContentID, ".spring.1@x") || len(p.Data) == 0 || !strings.Contains(r.HTML, "cid:"+p.ContentID) {
				t.Errorf("mailing %d: picture %s (%s, %d bytes) is not named, drawn and shown", i, p.ContentID, p.Name, len(p.Data))
			}
		}
		if strings.Contains(ill.Mail(res.Events, ms[i]).HTML, "cid:") {
			t.Errorf("mailing %d: Mail's HTML names pictures it has not", i)
		}
	}
	for i := range reps[0].Pictures {
		a, b, pub, pub2 := reps[0].Pictures[i].Data, reps[1].Pictures[i].Data, reps[2].Pictures[i].Data, reps[3].Pictures[i].Data
		if bytes.Equal(a, pub) || bytes.Equal(b, pub) || bytes.Equal(a, b) {
			t.Errorf("picture %s: a player's copy is the public one or the other player's", reps[0].Pictures[i].ContentID)
		}
		if !bytes.Equal(pub, pub2) {
			t.Errorf("picture %s: two public copies differ", reps[2].Pictures[i].ContentID)
		}
	}
	if reps := ill.Illustrate(nil, res.Events, ms[:1]); len(reps[0].Pictures) != 1 || reps[0].Pictures[0].ContentID != "board.spring.1@x" {
		t.Errorf("without the position before: %d pictures, want the board alone", len(reps[0].Pictures))
	}
}
