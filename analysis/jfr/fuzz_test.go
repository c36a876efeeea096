package jfr

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

// FuzzJFR: any bytes give a profile that keeps the model's invariants or a
// positioned error, never a panic. The seeds are the second chunk of a real
// three-chunk recording (a whole chunk of 15 KB with its own metadata and
// constant pools) and its first bytes.
func FuzzJFR(f *testing.F) {
	chunk := secondChunk(f)
	f.Add(chunk)
	f.Add(chunk[:headerSize+64])
	f.Add(append(append([]byte{}, chunk...), chunk...))
	f.Fuzz(func(t *testing.T, data []byte) { testprof.CheckParse(t, "jfr", "in", data) })
}

// secondChunk returns the second chunk of testdata/fastslow-3chunks.jfr.gz.
func secondChunk(t testing.TB) []byte {
	gz, err := os.ReadFile("testdata/fastslow-3chunks.jfr.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := chunks("fastslow", data)
	if err != nil || len(cs) != 3 {
		t.Fatalf("chunks = %v, %v; want 3", cs, err)
	}
	return data[cs[1].off : cs[1].off+cs[1].size]
}
