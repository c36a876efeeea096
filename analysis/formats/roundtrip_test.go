package formats

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// oracleFiles are the small pprof files whose go tool pprof output is
// recorded under analysis/pprof/testdata/pprof-oracle.
var oracleFiles = []string{"fib.pb.gz", "simple.prof", "java.cpu", "inline_hot.pprof"}

// TestFoldedRoundTripOfPprof: real pprof profiles written as folded stacks
// load back to the same tree of names.
func TestFoldedRoundTripOfPprof(t *testing.T) {
	for _, name := range oracleFiles {
		p, err := analysis.Load(context.Background(), "../pprof/testdata/pprof-oracle/"+name, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		v := p.DefaultValue
		var buf bytes.Buffer
		if err := folded.Write(&buf, p, v); err != nil {
			t.Fatal(err)
		}
		back, err := analysis.Parse(context.Background(), "export.folded", buf.Bytes(), analysis.LoadOptions{Format: "folded"})
		if err != nil {
			t.Fatalf("%s: reload folded: %v", name, err)
		}
		got, want := testprof.NameTree(analysis.NewTree(back), 0), testprof.NameTree(analysis.NewTree(p), v)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tree after folded round trip = %v, want %v", name, got, want)
		}
	}
}
