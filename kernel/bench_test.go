package kernel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// BenchmarkExecuteEcho measures the language's share of an `echo hi` round
// trip: parse, bind, run, record.
func BenchmarkExecuteEcho(b *testing.B) {
	in := kernel.New(b.TempDir(), lang.Table())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := in.Execute(ctx, "echo hi", &kernel.Recorder{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse parses a 1,000-line cell with quotes, options and comments.
func BenchmarkParse(b *testing.B) {
	cell := strings.Repeat(`top cpu n=10 focus="main\.(a|b)" by=cum  # the hot part`+"\n", 1000)
	b.SetBytes(int64(len(cell)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kernel.Parse(cell); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComplete completes an option value.
func BenchmarkComplete(b *testing.B) {
	in := kernel.New(b.TempDir(), lang.Table())
	b.ReportAllocs()
	for b.Loop() {
		in.Complete("echo stream=st", 14)
	}
}
