package pprof_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/analysis/pprof"
	"github.com/proflens/proflens/internal/testtool"
)

// BenchmarkLoadGenerated loads the speed benchmark's profile (1M samples,
// ~120k stacks, 50k functions, depth 40), generated once into the temp dir.
func BenchmarkLoadGenerated(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	testtool.Loop(b, func() {
		if _, err := analysis.Load(context.Background(), path, analysis.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDecode runs the fast decoder alone on the decompressed bytes of
// BenchmarkLoadGenerated's profile: the wire reading, the tables and the
// samples, without the gzip stream.
func BenchmarkDecode(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if ok, err := pprof.Decode(data); !ok || err != nil {
			b.Fatalf("decode declined (%v)", err)
		}
	})
}
