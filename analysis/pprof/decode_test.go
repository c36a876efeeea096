package pprof

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand"
	"os"
	"reflect"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// input is data as parse and gzipped see it.
func input(name string, data []byte, limit int64) *analysis.Input {
	return &analysis.Input{Name: name, Data: data, Limit: limit}
}

// viaPprof is the oracle: pprof's own parser, then fromProfile.
func viaPprof(data []byte) (*analysis.Profile, error) {
	pp, err := profile.ParseData(data)
	if err != nil {
		return nil, err
	}
	return fromProfile(input("oracle", data, 0), pp), nil
}

// gunzip decompresses gz, or returns it as it is when it is not gzip.
func gunzip(gz []byte) ([]byte, error) {
	if len(gz) < 2 || gz[0] != 0x1f || gz[1] != 0x8b {
		return gz, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// checkStream asserts that gzipped on gz agrees with decode on its
// decompressed bytes: both decline, or both give the same profile.
func checkStream(t *testing.T, name string, gz []byte) {
	t.Helper()
	got, ok, _ := gzipped(input(name, gz, analysis.DefaultLimit))
	data, err := gunzip(gz)
	if err != nil {
		if ok {
			t.Errorf("%s: gzipped accepted damaged gzip: %v", name, err)
		}
		return
	}
	want, wok, _ := decode(input(name, data, 0))
	if ok != wok || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: gzipped (ok %v) differs from decode (ok %v)", name, ok, wok)
	}
}

// checkDecode asserts that decode either declines data or gives exactly
// what the oracle gives.
func checkDecode(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, ok, _ := decode(input("oracle", data, 0))
	if !ok {
		return false
	}
	want, err := viaPprof(data)
	if err != nil {
		t.Errorf("%s: decode accepted data that profile.ParseData refuses: %v", name, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: decode differs from fromProfile(profile.ParseData)", name)
	}
	return true
}

func TestDecodePprofCorpus(t *testing.T) {
	decoded := 0
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := gunzip(raw)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != len(raw) {
			checkStream(t, path, raw)
		}
		if checkDecode(t, path, data) {
			decoded++
		}
	}
	t.Logf("decode took %d corpus files", decoded)
	if decoded < 25 {
		t.Errorf("decode took %d corpus files, want the 25+ protobuf ones", decoded)
	}
}

// TestDecodePprofRandom writes random profiles with Write and damages some
// of them; every result must match the oracle or be declined.
func TestDecodePprofRandom(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	labels := func(int) (string, map[string][]string) {
		if r.Intn(4) == 0 {
			return "", map[string][]string{"k": {"v"}, "thread": {"t1"}}
		}
		return "", nil
	}
	for i := 0; i < 300; i++ {
		p := testprof.Random(r, 1+r.Intn(40), labels)
		pp, err := toProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := pp.WriteUncompressed(&buf); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if !checkDecode(t, "random", data) {
			t.Fatalf("case %d: decode declined a valid profile", i)
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
		if _, ok, _ := gzipped(input("random", gz.Bytes(), analysis.DefaultLimit)); !ok {
			t.Fatalf("case %d: gzipped declined a valid profile", i)
		}
		if _, ok, _ := gzipped(input("random", gz.Bytes(), int64(len(data)-1))); ok {
			t.Fatalf("case %d: gzipped accepted a profile over the limit", i)
		}
	}
}

// FuzzDecodePprof: decode declines or agrees with the oracle.
func FuzzDecodePprof(f *testing.F) {
	for _, name := range []string{"fib.pb.gz", "simple.prof", "inline_hot.pprof"} {
		raw, err := os.ReadFile("testdata/pprof-oracle/" + name)
		if err != nil {
			f.Fatal(err)
		}
		data, err := gunzip(raw)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, "fuzz", data) })
}

// TestTwoTimes: a profile with two time_nanos fields, the first not zero,
// is what concatenated profiles look like, and profile.ParseData refuses
// it; the fast decoder declines it, so that the load reports pprof's error.
// After a time of zero, a second time is read as the profile's time.
func TestTwoTimes(t *testing.T) {
	times := func(a, b uint64) []byte {
		return append(labelProfile([][]labelWire{nil}), message(func(p wire) { p.varint(9, a); p.varint(9, b) })...)
	}
	both := times(1e18, 2e18)
	if _, err := profile.ParseData(both); err == nil {
		t.Fatal("profile.ParseData accepts two times")
	}
	if _, ok, err := decode(input("both", both, 0)); ok || err != nil {
		t.Errorf("decode ok %v, error %v on two times; want it declined", ok, err)
	}
	if !checkDecode(t, "zero, then a time", times(0, 2e18)) {
		t.Error("decode declined a zero time_nanos followed by another")
	}
}
