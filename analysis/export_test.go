package analysis

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
)

// roundTripPprof writes p with WritePprof and loads the result.
func roundTripPprof(t *testing.T, p *Profile) *Profile {
	t.Helper()
	var buf bytes.Buffer
	if err := WritePprof(&buf, p); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("export.pprof", buf.Bytes(), LoadOptions{Format: "pprof"})
	if err != nil {
		t.Fatalf("reload exported pprof: %v", err)
	}
	return back
}

// sameTops checks that a and b give the same top for every value type.
func sameTops(t *testing.T, name string, a, b *Profile) {
	t.Helper()
	if !reflect.DeepEqual(a.ValueTypes, b.ValueTypes) || len(a.Samples) != len(b.Samples) {
		t.Fatalf("%s: value types/samples %v/%d after round trip, want %v/%d", name, b.ValueTypes, len(b.Samples), a.ValueTypes, len(a.Samples))
	}
	ta, tb := NewTree(a), NewTree(b)
	for v := range a.ValueTypes {
		x, y := NewTop(ta, TopOptions{Value: v}), NewTop(tb, TopOptions{Value: v})
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s: top %s after round trip = %+v, want %+v", name, a.ValueTypes[v].Type, y, x)
		}
	}
}

func TestExportPprofRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < 100; i++ {
		p := randomProfile(r, 1+r.Intn(50))
		p.threads = append(p.threads, "worker-1")
		p.Samples[0].thread = int32(len(p.threads))
		back := roundTripPprof(t, p)
		sameTops(t, "random", p, back)
		if back.Thread(&back.Samples[0]) != "worker-1" {
			t.Errorf("thread after round trip = %q, want worker-1", back.Thread(&back.Samples[0]))
		}
	}
}

func TestExportPprofRoundTripCorpus(t *testing.T) {
	for _, path := range pprofCorpusFiles(t) {
		p, err := Load(path, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back := roundTripPprof(t, p)
		sameTops(t, path, p, back)
		if back.Period != p.Period || back.Duration != p.Duration || !back.Start.Equal(p.Start) || back.DefaultValue != p.DefaultValue {
			t.Errorf("%s: metadata after round trip differs", path)
		}
	}
}

// nameTree sums a tree's self and total values by path of frame names, the
// form folded stacks keep.
func nameTree(t *Tree, v int) map[string][2]int64 {
	out := map[string][2]int64{}
	key := make([]string, t.Len())
	for n := int32(0); n < int32(t.Len()); n++ {
		key[n] = t.Name(n)
		if pa := t.Parent[n]; pa >= 0 {
			key[n] = key[pa] + "\x00" + key[n]
		}
		s := out[key[n]]
		out[key[n]] = [2]int64{s[0] + t.Self[v][n], s[1] + t.Total[v][n]}
	}
	for k, s := range out {
		if s == [2]int64{} {
			delete(out, k)
		}
	}
	return out
}

func TestExportFoldedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var profiles []*Profile
	for i := 0; i < 100; i++ {
		p := randomProfile(r, 1+r.Intn(50))
		for k, x := range p.values {
			p.values[k] = abs64(x)
		}
		profiles = append(profiles, p)
	}
	profiles = append(profiles, oracleProfiles(t)...)
	for i, p := range profiles {
		v := p.DefaultValue
		var buf bytes.Buffer
		if err := WriteFolded(&buf, p, v); err != nil {
			t.Fatal(err)
		}
		if buf.Len() == 0 {
			continue // nothing to write: every stack weighs zero
		}
		back, err := Parse("export.folded", buf.Bytes(), LoadOptions{Format: "folded"})
		if err != nil {
			t.Fatalf("profile %d: reload folded: %v\n%s", i, err, buf.String())
		}
		got, want := nameTree(NewTree(back), 0), nameTree(NewTree(p), v)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("profile %d: tree after folded round trip = %v, want %v", i, got, want)
		}
	}
}
