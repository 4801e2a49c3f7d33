// Package faultnet is a TCP proxy for tests that breaks connections the way a sick
// server or network does: it can freeze (accept and keep connections open, but pass
// nothing and answer nothing, as a hung server does) and cut (close every connection).
// It listens on 127.0.0.1 only. It must not be used outside tests.
package faultnet

import (
	"io"
	"net"
	"sync"
)

// Proxy forwards connections on Addr to a target address.
type Proxy struct {
	Addr   string
	target string
	ln     net.Listener

	mu     sync.Mutex
	frozen bool
	conns  map[net.Conn]bool
	thawed chan struct{} // closed when the proxy thaws; replaced on freeze
	accept int           // connections accepted so far
}

// New starts a proxy to target on a free port of 127.0.0.1.
func New(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{Addr: ln.Addr().String(), target: target, ln: ln, conns: map[net.Conn]bool{}, thawed: make(chan struct{})}
	close(p.thawed)
	go p.serve()
	return p, nil
}

// Freeze makes the proxy a black hole: bytes on open connections are read and dropped,
// new connections are accepted and never answered. Connections stay open.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.frozen {
		p.frozen = true
		p.thawed = make(chan struct{})
	}
}

// Thaw lets new connections through again. A connection that was open while frozen
// stays broken (what it said was lost), as after a real hang.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frozen {
		p.frozen = false
		close(p.thawed)
	}
}

// Cut closes every open connection.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// Accepted is how many connections the proxy has accepted.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accept
}

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.Cut()
	return err
}

func (p *Proxy) track(c net.Conn, on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if on {
		p.conns[c] = true
	} else {
		delete(p.conns, c)
	}
}

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.accept++
		frozen, thawed := p.frozen, p.thawed
		p.mu.Unlock()
		p.track(c, true)
		go p.handle(c, frozen, thawed)
	}
}

func (p *Proxy) handle(c net.Conn, frozen bool, thawed chan struct{}) {
	defer p.track(c, false)
	defer c.Close()
	if frozen {
		// a hung server: the connection is taken and never answered
		go io.Copy(io.Discard, c) //nolint:errcheck // dropped on purpose
		<-thawed
		return
	}
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	p.track(up, true)
	defer p.track(up, false)
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { p.pipe(up, c); done <- struct{}{} }()
	go func() { p.pipe(c, up); done <- struct{}{} }()
	<-done
}

// pipe copies src to dst, dropping what it reads while the proxy is frozen.
func (p *Proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			frozen := p.frozen
			p.mu.Unlock()
			if !frozen {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}
