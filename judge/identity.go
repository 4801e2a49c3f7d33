package judge

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// Identity for people: who plays which robot (WHOGAME, as far as the game's whogame
// setting allows), a player's own change of address (ADDRESS from the old address with
// the secret, CONFIRM with the code mailed to the new one), a new secret mailed to the
// registered address (NEWSECRET), and standby players who take over an abandoned robot
// (STANDBY; the game master's REPLACE ROBOT STANDBY).

// addressChangeTTL is how long a change of address waits for its CONFIRM.
const addressChangeTTL = 7 * 24 * time.Hour

// MaxAddressCodes bounds the codes ADDRESS mails within a day: per robot, and to one new
// address from every game together. The code goes to an address nobody has proved yet,
// so without a bound a player could mail one ADDRESS after another and have the judge
// mail a victim without end (issue 14, reflection).
const MaxAddressCodes = 3

func (j *Judge) cmdWhoGame(e *cmdEnv) (string, error) {
	if err := j.loadGame(e, ""); err != nil {
		return "", err
	}
	g := *e.game
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	allowed := o.whoGame() == "public" || e.cli
	if !allowed && e.from != "" {
		gm, err := j.gmBySecret(e)
		if err != nil {
			return "", err
		}
		allowed = gm != nil
		if !allowed && o.whoGame() == "players" && e.cm.secret != "" {
			p, err := j.findPlayer(e)
			var d *denial
			if err != nil && !errors.As(err, &d) {
				return "", err
			}
			allowed = p != nil
		}
	}
	if !allowed {
		who := "its players and game masters (send it with your secret)"
		if o.whoGame() == "gm" {
			who = "its game masters"
		}
		return "", refuse("in game %s, WHOGAME is for %s.", g.Tag, who)
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s (%s, %s):\n", g.Tag, j.gameWhat(g), g.Status)
	for _, p := range ps {
		note := ""
		if p.Withdrawn {
			note = "  (withdrawn)"
		}
		fmt.Fprintf(&b, "  %-12s %s%s\n", p.Robot, p.Email, note)
	}
	if len(ps) == 0 {
		b.WriteString("  nobody has joined yet\n")
	}
	return b.String(), nil
}

func (j *Judge) cmdAddress(e *cmdEnv, c Command) (string, error) {
	g, p := *e.game, *e.player
	if len(c.Args) != 1 {
		return "", refuse("write ADDRESS NEW@ADDRESS.")
	}
	if err := CheckAddress("ADDRESS", strings.Trim(c.Args[0], "<>")); err != nil {
		return "", err // what is wrong with it, never the address itself
	}
	addr := strings.ToLower(strings.Trim(c.Args[0], "<>"))
	if err := j.notJudge("ADDRESS", addr); err != nil {
		return "", err
	}
	if strings.EqualFold(addr, p.Email) {
		return "", refuse("%s is your address already.", addr)
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	for _, q := range ps {
		if strings.EqualFold(q.Email, addr) && !q.Withdrawn {
			return "", refuse("%s plays another robot in game %s.", addr, g.Tag)
		}
	}
	byRobot, byAddr, err := e.tx.AuditCount("address-change", g.ID, p.Robot+" asks to move to ", " asks to move to "+addr, j.now().Add(-24*time.Hour))
	if err != nil {
		return "", err
	}
	if byRobot >= MaxAddressCodes || byAddr >= MaxAddressCodes {
		return "", refuse("%d codes have gone out for a change of address within a day already (at most %d a robot, and %d to one address); try again tomorrow.",
			max(byRobot, byAddr), MaxAddressCodes, MaxAddressCodes)
	}
	code, hash, err := j.newSecret()
	if err != nil {
		return "", err
	}
	acID, err := e.tx.AddAddressChange(store.AddressChange{PlayerID: p.ID, NewEmail: addr, CodeHash: hash, Created: j.now()})
	if err != nil {
		return "", err
	}
	ac := store.Owner{Kind: store.OwnerAddress, ID: acID}
	code = j.hold(ac, code) // the code goes in at send time
	if err := j.audit(e, "address-change", p.Robot+" asks to move to "+addr); err != nil {
		return "", err
	}
	text := fmt.Sprintf("The player of the robot %s in game %s asks to play from this address from now on.\n\n"+
		"If that is you, reply from this address with this line in the body:\n\n  CONFIRM %s\n\n"+
		"Until then nothing changes. The code counts for %d days. If you did not ask for this,\n"+
		"do nothing.\n", p.Robot, g.Tag, code, int(addressChangeTTL/(24*time.Hour)))
	if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: addr,
		subject:   subject(g.Tag, "Confirm your new address"),
		messageID: j.noticeID("address", fmt.Sprintf("%s.%s.s%d", g.Tag, e.key, p.Seat)), text: text, slots: []store.Owner{ac}}); err != nil {
		return "", err
	}
	return fmt.Sprintf("A code went to %s. Reply from there with the CONFIRM line it gives, and %s is\n"+
		"played from %s (your secret stays the same). Until then nothing changes.\n", addr, p.Robot, addr), nil
}

func (j *Judge) cmdConfirm(e *cmdEnv, c Command) (string, error) {
	if len(c.Args) != 1 || e.from == "" {
		return "", refuse("write CONFIRM CODE, from the address the judge mailed the code to.")
	}
	pjs, err := e.tx.PendingJoins(e.from, j.now().Add(-joinTTL))
	if err != nil {
		return "", err
	}
	for _, pj := range pjs {
		if j.secretOK(e.proofs, pj.CodeHash, c.Args[0], true) {
			if pj.Robot == store.ObserveRobot {
				return j.takeObserve(e, pj) // observers.go
			}
			return j.takeJoin(e, pj)
		}
	}
	cs, err := e.tx.PendingAddressChanges(e.from, j.now().Add(-addressChangeTTL))
	if err != nil {
		return "", err
	}
	for _, ch := range cs {
		if !j.secretOK(e.proofs, ch.CodeHash, c.Args[0], true) {
			continue
		}
		p, err := e.tx.PlayerByID(ch.PlayerID)
		if err != nil {
			return "", err
		}
		g, err := e.tx.Game(p.GameID)
		if err != nil {
			return "", err
		}
		e.game = &g
		if err := e.tx.SetPlayerEmail(p.ID, ch.NewEmail); err != nil {
			return "", err
		}
		if err := e.tx.FinishAddressChange(ch.ID, j.now()); err != nil {
			return "", err
		}
		if err := j.audit(e, "address-change", fmt.Sprintf("%s: %s → %s", p.Robot, p.Email, ch.NewEmail)); err != nil {
			return "", err
		}
		if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("%s now plays from another address", p.Robot)),
			messageID: j.noticeID("address", fmt.Sprintf("%s.%s.old", g.Tag, e.key)),
			text: fmt.Sprintf("As you asked, your robot %s in game %s is played from %s from now on.\n"+
				"Mail from this address no longer counts for it.\n", p.Robot, g.Tag, ch.NewEmail), generated: true}); err != nil {
			return "", err
		}
		if err := j.mailGMs(e.tx, g, "address", e.key, fmt.Sprintf("%s has a new address", p.Robot),
			fmt.Sprintf("%s in game %s moved from %s to %s (confirmed from both).\n", p.Robot, g.Tag, p.Email, ch.NewEmail)); err != nil {
			return "", err
		}
		return fmt.Sprintf("Confirmed: you play %s in game %s from this address. Your secret is unchanged.\n", p.Robot, g.Tag), nil
	}
	return "", refuse("no JOIN or change of address from this address waits for that code (a JOIN's code counts for %d hours, an address's for %d days).",
		int(joinTTL/time.Hour), int(addressChangeTTL/(24*time.Hour)))
}

func (j *Judge) cmdNewSecret(e *cmdEnv, c Command) (string, error) {
	robot, err := j.gameAndRobot(e, c)
	if err != nil {
		return "", err
	}
	g := *e.game
	p, err := e.tx.PlayerByRobot(g.ID, robot)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	// The same answer whether the robot exists or not, and the secret only ever goes to
	// the registered address: asking reveals nothing and gives nothing to a stranger.
	answer := fmt.Sprintf("If %s in game %s is registered to the address this mail came from, a new secret\n"+
		"is on its way there; the old one no longer counts.\n", robot, g.Tag)
	if err != nil || p.Withdrawn || !strings.EqualFold(p.Email, e.from) {
		return answer, j.audit(e, "newsecret-refused", robot)
	}
	sec, hash, err := j.newSecret()
	if err != nil {
		return "", err
	}
	if err := e.tx.SetPlayerSecret(p.ID, hash); err != nil {
		return "", err
	}
	if err := j.audit(e, "newsecret", p.Robot); err != nil {
		return "", err
	}
	o := store.Owner{Kind: store.OwnerPlayer, ID: p.ID}
	sec = j.hold(o, sec) // the secret goes in at send time
	return answer, j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
		subject:   subject(g.Tag, fmt.Sprintf("A new secret for %s", p.Robot)),
		messageID: j.noticeID("newsecret", fmt.Sprintf("%s.%s.s%d", g.Tag, e.key, p.Seat)),
		text: fmt.Sprintf("As asked, %s in game %s has a new secret: %s\n\nThe old one no longer counts. Keep this one: "+
			"every sheet and command needs it, on a line \"secret ...\".\n", p.Robot, g.Tag, sec), slots: []store.Owner{o}})
}

func (j *Judge) cmdStandby(e *cmdEnv, c Command) (string, error) {
	off := len(c.Args) > 0 && strings.EqualFold(c.Args[len(c.Args)-1], "OFF")
	args := c.Args
	if off {
		args = args[:len(args)-1]
	}
	if len(args) > 1 {
		return "", refuse("write STANDBY [GAME] or STANDBY [GAME] OFF.")
	}
	tag := ""
	if len(args) == 1 {
		tag = strings.ToLower(args[0])
	}
	if err := j.loadGame(e, tag); err != nil {
		return "", err
	}
	g := *e.game
	if e.from == "" {
		return "", refuse("STANDBY is by mail.")
	}
	if off {
		ok, err := e.tx.RemoveStandby(g.ID, e.from)
		if err != nil || !ok {
			return fmt.Sprintf("You were not standing by for game %s.\n", g.Tag), err
		}
		return fmt.Sprintf("You no longer stand by for game %s.\n", g.Tag), j.audit(e, "standby", "off")
	}
	if g.Status == store.GameOver {
		return "", refuse("game %s is over.", g.Tag)
	}
	ok, err := e.tx.AddStandby(g.ID, e.from, j.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return fmt.Sprintf("You stand by for game %s already.\n", g.Tag), nil
	}
	if err := j.audit(e, "standby", e.from); err != nil {
		return "", err
	}
	if err := j.mailGMs(e.tx, g, "standby", e.key, "A standby player offers to play",
		fmt.Sprintf("%s stands by for game %s: REPLACE ROBOT STANDBY gives them a robot whose player left.\n", e.from, g.Tag)); err != nil {
		return "", err
	}
	return fmt.Sprintf("You stand by for game %s. When a player leaves, the game master may give you the\n"+
		"robot; you then get a welcome with the board, your hand and your secret. STANDBY %s OFF to stop.\n", g.Tag, g.Tag), nil
}
