package jfr

import (
	"fmt"
	"math/big"
	"math/rand"
	"slices"
	"strconv"
	"testing"
)

// TestCheckDamaged: check walks damage of a real chunk (the second of
// fastslow-3chunks, 15 KB) without a panic: the chunk cut at every byte of
// the 2 KB after its pool offset (the pools' types and strings), and the
// top bit flipped in every byte of the metadata's first 2 KB (its strings
// and classes) and of the pools' first 1 KB. A cut inside the pools or an
// event is an error, a cut between events is not; the whole chunk passes.
func TestCheckDamaged(t *testing.T) {
	chunk := secondChunk(t)
	cs, err := chunks("second", chunk)
	if err != nil {
		t.Fatal(err)
	}
	meta, pool := cs[0].meta, cs[0].pool
	if _, err := check(chunk, meta, pool); err != nil {
		t.Fatalf("the whole chunk: %v", err)
	}
	ends := map[int]bool{} // where events end: the cuts that leave whole events
	for pos := headerSize; pos < len(chunk); {
		c := checker{buf: chunk, pos: pos}
		size, err := c.varint()
		if err != nil || size == 0 {
			t.Fatalf("event at %d: size %d, %v", pos, size, err)
		}
		pos += int(size)
		ends[pos] = true
	}
	try := func(what string, buf []byte) (err error) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: check panics: %v", what, r)
			}
		}()
		_, err = check(buf, meta, pool)
		return err
	}
	for n := max(meta, pool) + 1; n < min(len(chunk), pool+2048); n++ {
		if err := try("cut", chunk[:n]); (err == nil) != ends[n] {
			t.Errorf("cut at %d (an event ends there: %v): error %v", n, ends[n], err)
		}
	}
	buf := append([]byte(nil), chunk...)
	for _, r := range [][2]int{{meta, meta + 2048}, {pool, pool + 1024}} {
		for i := r[0]; i < r[1]; i++ {
			buf[i] ^= 0x80 // a varint's last byte continues, or a continued one ends
			try("flip", buf)
			buf[i] ^= 0x80
		}
	}
}

// TestCheckPoolAndIndex: check reads the constant pools, the events' sizes
// and the metadata's string indices: a pool entry of a type the metadata
// does not have, a pool string of an unknown encoding, an event one byte
// longer than the chunk, and an element named by the string index one past
// the metadata's strings are errors naming what was expected.
func TestCheckPoolAndIndex(t *testing.T) {
	chunk := secondChunk(t)
	cs, err := chunks("second", chunk)
	if err != nil {
		t.Fatal(err)
	}
	meta, pool := cs[0].meta, cs[0].pool
	// The pool event: size, type, start, duration, delta, flush, then the
	// number of types and the first type's id, each a varint.
	c := checker{buf: chunk, pos: pool}
	c.skip(6)
	if n, err := c.varint(); err != nil || n == 0 {
		t.Fatalf("pool: %d types, %v", n, err)
	}
	typ := c.pos
	if chunk[typ] >= 0x80 {
		t.Fatalf("the first pool type's id at %d is not one byte", typ)
	}
	bad := append([]byte(nil), chunk...)
	bad[typ] = 0x7f
	if _, err := check(bad, meta, pool); err == nil || err.Error() != "constant pool: expected a type of the metadata, found 127" {
		t.Errorf("pool entry of type 127: error %v", err)
	}
	// The first type's first entry: its id, then its value, a string here
	// ("Interpreted", a frame type): an unknown string encoding.
	c.varint()
	if k, err := c.count(1); err != nil || k == 0 {
		t.Fatalf("pool: %d entries of the first type, %v", k, err)
	}
	c.varint()
	if chunk[c.pos] != 3 {
		t.Fatalf("the first pool entry at %d is not a UTF-8 string", c.pos)
	}
	bad = append([]byte(nil), chunk...)
	bad[c.pos] = 9
	if _, err := check(bad, meta, pool); err == nil || err.Error() != "constant pool: expected a string encoding (0, 1, 3, 4 or 5), found 9" {
		t.Errorf("pool string of encoding 9: error %v", err)
	}
	// The pool event is the chunk's last; its size (a padded varint) one
	// larger passes the end of the chunk.
	c = checker{buf: chunk, pos: pool}
	if size, err := c.varint(); err != nil || pool+int(size) != len(chunk) || chunk[pool]&0x7f == 0x7f {
		t.Fatalf("pool event: size %d, %v; want the rest of the chunk", size, err)
	}
	bad = append([]byte(nil), chunk...)
	bad[pool]++
	want := fmt.Sprintf("event: expected an event size within the chunk's %d bytes left, found %d", len(chunk)-pool, len(chunk)-pool+1)
	if _, err := check(bad, meta, pool); err == nil || err.Error() != want {
		t.Errorf("pool event one byte too long: error %v, want %s", err, want)
	}
	// The metadata event: size, type, start, duration, id, the number of
	// strings and the strings, then the root element's name.
	c = checker{buf: chunk, pos: meta}
	c.skip(5)
	n, err := c.count(1)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if _, err := c.str(); err != nil {
			t.Fatal(err)
		}
	}
	if chunk[c.pos] >= 0x80 {
		t.Fatalf("the root element's name index at %d is not one byte", c.pos)
	}
	// The index n, written in place of the one-byte index, moves the pools
	// along by the varint's extra bytes.
	if n >= 1<<14 {
		t.Fatalf("metadata: %d strings; want fewer than 2^14", n)
	}
	index := []byte{byte(n)}
	if n >= 0x80 {
		index = []byte{byte(n) | 0x80, byte(n >> 7)}
	}
	bad = slices.Concat(chunk[:c.pos], index, chunk[c.pos+1:])
	pool += len(index) - 1
	want = "metadata: expected a string index below " + strconv.Itoa(n) + ", found " + strconv.Itoa(n)
	if _, err := check(bad, meta, pool); err == nil || err.Error() != want {
		t.Errorf("root element named by string %d: error %v, want %s", n, err, want)
	}
}

// TestTicks: an event's time is its ticks since the chunk's start, at the
// chunk's ticks per second (10^9 when the header says 0), in nanoseconds
// rounded down, negative for an event before the chunk's start, checked
// against exact arithmetic on random clocks; a time past 2^62 ns stays
// there.
func TestTicks(t *testing.T) {
	r := rand.New(rand.NewSource(62))
	for range 20000 {
		c := chunk{startNanos: r.Int63n(1 << 61), startTicks: r.Uint64() >> r.Intn(64), tps: []uint64{0, 1, 1e9, 2_400_000_000, 24_000_000, r.Uint64() >> r.Intn(64)}[r.Intn(6)]}
		ticks := c.startTicks + uint64(r.Int63n(1<<40)) - uint64(r.Int63n(1<<40))
		if r.Intn(4) == 0 {
			ticks = r.Uint64()
		}
		tps := c.tps
		if tps == 0 {
			tps = 1e9
		}
		diff := new(big.Int).Sub(new(big.Int).SetUint64(ticks), new(big.Int).SetUint64(c.startTicks))
		ns := new(big.Int).Quo(new(big.Int).Mul(new(big.Int).Abs(diff), big.NewInt(1e9)), new(big.Int).SetUint64(tps))
		if ns.Cmp(big.NewInt(1<<62)) > 0 {
			ns.SetInt64(1 << 62)
		}
		if diff.Sign() < 0 {
			ns.Neg(ns)
		}
		want := ns.Int64() + c.startNanos - 1000
		if got := c.at(ticks, 1000); got != want {
			t.Fatalf("chunk %+v: ticks %d at %d, want %d", c, ticks, got, want)
		}
	}
}
