package pprof

import (
	"bytes"
	"context"
	"math/rand"
	"reflect"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// roundTrip writes p with Write and loads the result.
func roundTrip(t *testing.T, p *analysis.Profile) *analysis.Profile {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	back, err := analysis.Parse(context.Background(), "export.pprof", buf.Bytes(), analysis.LoadOptions{Format: "pprof"})
	if err != nil {
		t.Fatalf("reload exported pprof: %v", err)
	}
	return back
}

// sameTops checks that a and b give the same top for every value type.
func sameTops(t *testing.T, name string, a, b *analysis.Profile) {
	t.Helper()
	if !reflect.DeepEqual(a.ValueTypes, b.ValueTypes) || len(a.Samples) != len(b.Samples) {
		t.Fatalf("%s: value types/samples %v/%d after round trip, want %v/%d", name, b.ValueTypes, len(b.Samples), a.ValueTypes, len(a.Samples))
	}
	a = a.At(analysis.Functions) // as Parse gives b
	ta, tb := analysis.NewTree(a), analysis.NewTree(b)
	for v := range a.ValueTypes {
		x, y := analysis.NewTop(ta, analysis.TopOptions{Value: v}), analysis.NewTop(tb, analysis.TopOptions{Value: v})
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s: top %s after round trip = %+v, want %+v", name, a.ValueTypes[v].Type, y, x)
		}
	}
}

func TestWriteRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	first := func(i int) (string, map[string][]string) {
		if i == 0 {
			return "worker-1", nil
		}
		return "", nil
	}
	for i := 0; i < 100; i++ {
		p := testprof.Random(r, 1+r.Intn(50), first)
		back := roundTrip(t, p)
		sameTops(t, "random", p, back)
		if back.Thread(&back.Samples[0]) != "worker-1" {
			t.Errorf("thread after round trip = %q, want worker-1", back.Thread(&back.Samples[0]))
		}
	}
}

func TestWriteRoundTripCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back := roundTrip(t, p)
		sameTops(t, path, p, back)
		if back.Period != p.Period || back.Duration != p.Duration || !back.Start.Equal(p.Start) || back.DefaultValue != p.DefaultValue {
			t.Errorf("%s: metadata after round trip differs", path)
		}
	}
}
