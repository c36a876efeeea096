package analysis

import (
	"bytes"
	"compress/gzip"
	"math/rand"
	"os"
	"reflect"
	"testing"

	"github.com/google/pprof/profile"
)

// viaPprof is the oracle: pprof's own parser, then FromPprof.
func viaPprof(data []byte) (*Profile, error) {
	pp, err := profile.ParseData(data)
	if err != nil {
		return nil, err
	}
	return FromPprof(pp), nil
}

// checkStream asserts that decodePprofGzip on gz agrees with decodePprof on
// its decompressed bytes: both decline, or both give the same profile.
func checkStream(t *testing.T, name string, gz []byte) {
	t.Helper()
	got, ok := decodePprofGzip(gz, LoadOptions{})
	data, err := gunzip(name, gz, 0)
	if err != nil {
		if ok {
			t.Errorf("%s: decodePprofGzip accepted damaged gzip: %v", name, err)
		}
		return
	}
	want, wok := decodePprof(data)
	if ok != wok || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: decodePprofGzip (ok %v) differs from decodePprof (ok %v)", name, ok, wok)
	}
}

// checkDecode asserts that decodePprof either declines data or gives exactly
// what the oracle gives.
func checkDecode(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, ok := decodePprof(data)
	if !ok {
		return false
	}
	want, err := viaPprof(data)
	if err != nil {
		t.Errorf("%s: decodePprof accepted data that profile.ParseData refuses: %v", name, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: decodePprof differs from FromPprof(profile.ParseData)", name)
	}
	return true
}

func TestDecodePprofCorpus(t *testing.T) {
	decoded := 0
	for _, path := range pprofCorpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := gunzip(path, raw, 0)
		if err != nil {
			t.Fatal(err)
		}
		if isGzip(raw) {
			checkStream(t, path, raw)
		}
		if checkDecode(t, path, data) {
			decoded++
		}
	}
	t.Logf("decodePprof took %d corpus files", decoded)
	if decoded < 25 {
		t.Errorf("decodePprof took %d corpus files, want the 25+ protobuf ones", decoded)
	}
}

// TestDecodePprofRandom writes random profiles with WritePprof and damages
// some of them; every result must match the oracle or be declined.
func TestDecodePprofRandom(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 300; i++ {
		p := randomProfile(r, 1+r.Intn(40))
		for j := range p.Samples {
			if r.Intn(4) == 0 {
				p.labelSets = append(p.labelSets, map[string][]string{"k": {"v"}, "thread": {"t1"}})
				p.Samples[j].labels = int32(len(p.labelSets))
			}
		}
		pp, err := ToPprof(p)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := pp.WriteUncompressed(&buf); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if !checkDecode(t, "random", data) {
			t.Fatalf("case %d: decodePprof declined a valid profile", i)
		}
		for k := 0; k < 5; k++ {
			bad := append([]byte(nil), data...)
			bad[r.Intn(len(bad))] ^= byte(1 << r.Intn(8))
			bad = bad[:len(bad)-r.Intn(3)]
			checkDecode(t, "damaged", bad)
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(bad)
			zw.Close()
			checkStream(t, "damaged", gz.Bytes())
		}
		var gz bytes.Buffer
		if err := pp.Write(&gz); err != nil {
			t.Fatal(err)
		}
		checkStream(t, "random", gz.Bytes())
		if _, ok := decodePprofGzip(gz.Bytes(), LoadOptions{}); !ok {
			t.Fatalf("case %d: decodePprofGzip declined a valid profile", i)
		}
		if _, ok := decodePprofGzip(gz.Bytes(), LoadOptions{Limit: int64(len(data) - 1)}); ok {
			t.Fatalf("case %d: decodePprofGzip accepted a profile over the limit", i)
		}
	}
}

// FuzzDecodePprof: decodePprof declines or agrees with the oracle.
func FuzzDecodePprof(f *testing.F) {
	for _, name := range []string{"fib.pb.gz", "simple.prof", "inline_hot.pprof"} {
		raw, err := os.ReadFile("testdata/pprof-oracle/" + name)
		if err != nil {
			f.Fatal(err)
		}
		data, err := gunzip(name, raw, 0)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, "fuzz", data) })
}
