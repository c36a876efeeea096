package jupyter

import (
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPublisherNeverBlocks: with a send that is stuck, put returns at once,
// memory stays bounded and the oldest messages are dropped and counted.
func TestPublisherNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var sent []string
	p := newPublisher(8, func(f [][]byte) error {
		<-release
		mu.Lock()
		sent = append(sent, string(f[0]))
		mu.Unlock()
		return nil
	}, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	go p.run()
	start := time.Now()
	for i := 0; i < 1000; i++ {
		p.put(outgoing{frames: [][]byte{{byte('0' + i%10)}}})
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("1000 puts with a stuck subscriber took %v, want no blocking", d)
	}
	p.mu.Lock()
	n := p.n
	p.mu.Unlock()
	if n > 8 {
		t.Errorf("queue holds %d messages, want at most 8", n)
	}
	if d := p.droppedCount(); d < 1000-8-1 {
		t.Errorf("dropped %d, want at least %d", d, 1000-8-1)
	}
	close(release)
	p.flush(time.Second)
	p.close()
	mu.Lock()
	defer mu.Unlock()
	if len(sent) == 0 || sent[len(sent)-1] != "9" {
		t.Errorf("sent %v, want the newest message (9) last", sent)
	}
}

// TestPublisherByteBound: big messages are bounded by bytes, not only by
// count; a message larger than the bound still goes out alone.
func TestPublisherByteBound(t *testing.T) {
	p := newPublisher(1000, func([][]byte) error { return nil }, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	p.maxBytes = 100
	for i := 0; i < 10; i++ {
		p.put(outgoing{frames: [][]byte{make([]byte, 30)}})
	}
	if p.n != 3 || p.bytes != 90 || p.droppedCount() != 7 {
		t.Errorf("after 10 puts of 30 bytes with a 100-byte bound: %d queued, %d bytes, %d dropped; want 3, 90, 7", p.n, p.bytes, p.droppedCount())
	}
	p.put(outgoing{frames: [][]byte{make([]byte, 500)}})
	if p.n != 1 || p.bytes != 500 {
		t.Errorf("an oversized message: %d queued, %d bytes; want it alone (1, 500)", p.n, p.bytes)
	}
}

// sentLog is a publisher's send that records the first frame of each message.
type sentLog struct {
	mu   sync.Mutex
	sent []string
}

func (s *sentLog) send(f [][]byte) error {
	s.mu.Lock()
	s.sent = append(s.sent, string(f[0]))
	s.mu.Unlock()
	return nil
}

func (s *sentLog) get() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sent...)
}

func msg(name string, r rank, cell *Message) outgoing {
	return outgoing{frames: [][]byte{[]byte(name)}, rank: r, cell: cell, idle: name == "idle"}
}

// TestPublisherDropsByRank: a full queue drops stream text first, then other
// outputs, then inputs; a status only goes past the byte bound. The cell is
// told, once and just before its idle, how many of its messages were dropped.
func TestPublisherDropsByRank(t *testing.T) {
	var s sentLog
	notice := func(cell *Message, n int) [][]byte {
		return [][]byte{fmt.Appendf(nil, "notice %s %d", cell.Header.MsgID, n)}
	}
	p := newPublisher(4, s.send, notice, slog.New(slog.NewTextHandler(io.Discard, nil)))
	cell := &Message{Header: Header{MsgID: "c1", MsgType: "execute_request"}}
	other := &Message{Header: Header{MsgID: "k1", MsgType: "kernel_info_request"}}
	for _, o := range []outgoing{
		msg("busy", rankStatus, cell), msg("input", rankInput, cell), msg("s1", rankStream, cell),
		msg("s2", rankStream, cell), msg("display", rankOutput, cell), msg("s3", rankStream, cell),
		msg("result", rankOutput, cell), msg("busy", rankStatus, other), msg("idle", rankStatus, other),
		msg("idle", rankStatus, cell),
	} {
		p.put(o)
	}
	go p.run()
	p.flush(time.Second)
	p.close()
	want := []string{"busy", "busy", "idle", "notice c1 6", "idle"}
	if got := s.get(); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if d := p.droppedCount(); d != 6 {
		t.Errorf("dropped %d, want 6", d)
	}
}

// TestPublisherOrderAndNotice: what is kept goes out in the order it came,
// and a cell that lost nothing gets no notice.
func TestPublisherOrderAndNotice(t *testing.T) {
	var s sentLog
	p := newPublisher(6, s.send, func(*Message, int) [][]byte { return [][]byte{[]byte("notice")} }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a := &Message{Header: Header{MsgID: "a", MsgType: "execute_request"}}
	b := &Message{Header: Header{MsgID: "b", MsgType: "execute_request"}}
	for _, o := range []outgoing{
		msg("busy", rankStatus, a), msg("out-a", rankOutput, a), msg("idle", rankStatus, a),
		msg("busy", rankStatus, b), msg("input-b", rankInput, b), msg("s-b", rankStream, b), msg("idle", rankStatus, b),
	} {
		p.put(o)
	}
	go p.run()
	p.flush(time.Second)
	p.close()
	want := []string{"busy", "out-a", "idle", "busy", "input-b", "notice", "idle"}
	if got := s.get(); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

// TestPublisherStatusBounds: statuses pass the count bound up to
// statusSlack times it, and never the byte bound.
func TestPublisherStatusBounds(t *testing.T) {
	p := newPublisher(2, func([][]byte) error { return nil }, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for range 100 {
		p.put(outgoing{frames: [][]byte{{1}}, rank: rankStatus})
	}
	if p.n != 2*statusSlack || p.droppedCount() != 100-2*statusSlack {
		t.Errorf("100 statuses, count bound 2: %d queued, %d dropped; want %d, %d", p.n, p.droppedCount(), 2*statusSlack, 100-2*statusSlack)
	}
	p = newPublisher(2, func([][]byte) error { return nil }, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	p.maxBytes = 1000
	for range 50 {
		p.put(outgoing{frames: [][]byte{make([]byte, 100)}, rank: rankStatus})
	}
	if p.n != 10 || p.bytes != 1000 || p.droppedCount() != 40 {
		t.Errorf("50 statuses of 100 bytes, count bound 2, byte bound 1000: %d queued, %d bytes, %d dropped; want 10, 1000, 40", p.n, p.bytes, p.droppedCount())
	}
	p.put(outgoing{frames: [][]byte{make([]byte, 10)}, rank: rankStream})
	if p.n != 10 || p.droppedCount() != 41 {
		t.Errorf("a stream into a queue full of statuses: %d queued, %d dropped; want the stream dropped (10, 41)", p.n, p.droppedCount())
	}
}

// TestDropNotice: the notice is a signed stderr stream parented to the cell.
func TestDropNotice(t *testing.T) {
	k := &Kernel{sign: signer{key: []byte("k")}, session: "s", user: "u", log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	cell := &Message{RawHeader: []byte(`{"msg_id":"c1","msg_type":"execute_request"}`), Header: Header{MsgID: "c1", MsgType: "execute_request"}}
	m, err := k.sign.decode(k.dropNotice(cell, 7))
	if err != nil {
		t.Fatal(err)
	}
	c := content(m)
	if m.Header.MsgType != "stream" || c["name"] != "stderr" || !strings.Contains(c["text"].(string), "7 messages") || string(m.Parent) != string(cell.RawHeader) {
		t.Errorf("notice: %s %v parent %s; want a stderr stream saying 7 messages, parented to the cell", m.Header.MsgType, c, m.Parent)
	}
}
