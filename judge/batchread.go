package judge

import (
	"runtime"
	"slices"

	"github.com/rallyjudge/rallyjudge/mail"
)

// batchReaders is how many goroutines read a batch's mails ahead of the writer (at most
// GOMAXPROCS). One kept the writer waiting for it a third of the time with Dovecot on
// two busy cores once judging a sheet cost less than reading it (issue 24 item 7).
const batchReaders = 2

// batchRead is the reading of a batch's mails ahead of the writer (batchItem.read):
// batchReaders goroutines, reader r reading the mails r, r+readers, r+2*readers … in
// order and saying on ready[r] when it has read one.
type batchRead struct {
	uidvalidity uint32
	first       uint32 // the first mail's UID
	items       []batchItem
	ready       []chan struct{}
	nReady      int // the mails 0 … nReady-1 are read (await)
}

// startReading starts reading msgs.
func (j *Judge) startReading(uidvalidity uint32, msgs []mail.Fetched) *batchRead {
	rb := &batchRead{uidvalidity: uidvalidity, items: make([]batchItem, len(msgs))}
	if len(msgs) == 0 {
		return rb
	}
	rb.first = msgs[0].UID
	msgs = slices.Clone(msgs) // the readers' own: the caller may set Ahead (prepareBatch)
	readers := min(batchReaders, runtime.GOMAXPROCS(0), len(msgs))
	rb.ready = make([]chan struct{}, readers)
	for r := range rb.ready {
		rb.ready[r] = make(chan struct{}, len(msgs)/readers+1)
		go func() {
			for i := r; i < len(msgs); i += readers {
				rb.items[i].read(j, uidvalidity, msgs[i])
				rb.ready[r] <- struct{}{}
				// The writer, when it waited for this mail, is woken to run next on this
				// reader's core, but only once the reader stops: after the next mail, or
				// when the runtime takes the core back (10 ms). Giving the core up now lets
				// the writer, which nothing can stand in for, run at once.
				runtime.Gosched()
			}
		}()
	}
	return rb
}

// await waits until the mails up to i are read. Only the writer calls it.
func (rb *batchRead) await(i int) {
	for ; rb.nReady <= i; rb.nReady++ {
		<-rb.ready[rb.nReady%len(rb.ready)]
	}
}

// prepareBatch is the fetcher's Prepare (mail.Prepare): the mails of a batch are read as
// soon as it is fetched, while the writer takes the batch before (Serve's intake), so
// that a batch's first mails are read when the writer comes to them; the integrity check
// the batch waits for, when one is due, starts now too — and as soon as the fetcher
// found mail, before the first batch (prepare is then given no mails).
func (j *Judge) prepareBatch(uidvalidity uint32, msgs []mail.Fetched) {
	j.checkAhead(0) // the integrity check the batch waits for, when one is due (integritycheck.go)
	if len(msgs) == 0 {
		return // mail is coming (mail.Prepare): the check may start before the first batch
	}
	rb := j.startReading(uidvalidity, msgs)
	for i := range msgs {
		msgs[i].Ahead = rb
	}
}

// prepared is the reading prepareBatch started for msgs, if it did.
func prepared(uidvalidity uint32, msgs []mail.Fetched) (*batchRead, bool) {
	if len(msgs) == 0 {
		return nil, false
	}
	rb, ok := msgs[0].Ahead.(*batchRead)
	if !ok || rb.uidvalidity != uidvalidity || len(rb.items) != len(msgs) || rb.first != msgs[0].UID {
		return nil, false
	}
	return rb, true
}
