package folded

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestWriteRoundTrip: Write, then load the text: the same tree of names.
func TestWriteRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100; i++ {
		p := testprof.Abs(testprof.Random(r, 1+r.Intn(50), nil))
		checkRoundTrip(t, fmt.Sprintf("random %d", i), p)
	}
}

// checkRoundTrip writes the default value of p as folded stacks, loads the
// text and compares the two trees of names.
func checkRoundTrip(t *testing.T, name string, p *analysis.Profile) {
	t.Helper()
	v := p.DefaultValue
	var buf bytes.Buffer
	if err := Write(&buf, p, v); err != nil {
		t.Fatal(err)
	}
	if buf.Len() == 0 {
		return // nothing to write: every stack weighs zero
	}
	back, err := analysis.Parse(context.Background(), "export.folded", buf.Bytes(), analysis.LoadOptions{Format: "folded"})
	if err != nil {
		t.Fatalf("%s: reload folded: %v\n%s", name, err, buf.String())
	}
	got, want := testprof.NameTree(analysis.NewTree(back), 0), testprof.NameTree(analysis.NewTree(p), v)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: tree after folded round trip = %v, want %v", name, got, want)
	}
}

// TestWriteValueType: Write names a value type the profile does not have.
func TestWriteValueType(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "in", []byte("a;b 1 2\n"), analysis.LoadOptions{Format: "folded"})
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[int]string{-1: "write folded: no value type -1", 2: "write folded: no value type 2", 1: ""} {
		var b bytes.Buffer
		err := Write(&b, p, v)
		if got := fmt.Sprint(err); want != "" && got != want || want == "" && (err != nil || b.String() != "a;b 2\n") {
			t.Errorf("Write(%d) = %q, %v; want %q", v, b.String(), err, want)
		}
	}
}
