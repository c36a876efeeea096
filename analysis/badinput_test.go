package analysis

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// positioned matches an error that names the file and a line or byte.
func positioned(name string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(name) + `: (line|byte) \d+: expected`)
}

// badInputs are the files whose damaged copies are tried: one or more per
// loader, plus the demo.
func badInputs(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, c := range loaderCases {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		out[c.file] = data
	}
	demo, err := demoFiles.ReadFile("demo/profvis-toy.hprof")
	if err != nil {
		t.Fatal(err)
	}
	out["profvis-toy.hprof"] = demo
	raw, err := gunzip("devirt.pprof", out["devirt.pprof"], 0)
	if err != nil {
		t.Fatal(err)
	}
	out["devirt.pb"] = raw
	out["small.dtrace"] = []byte("CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n" +
		"              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                12\n\n" +
		"              unix`idle+0x1\n                3\n")
	return out
}

// damage returns truncated and bit-flipped copies of data, deterministically.
func damage(data []byte) map[string][]byte {
	out := map[string][]byte{}
	for i := 1; i < 16; i++ {
		n := len(data) * i / 16
		out["cut"+itoa(n)] = data[:n]
		flip := append([]byte(nil), data...)
		k := (len(data)*i)/16 + i
		if k < len(flip) {
			flip[k] ^= 1 << (i % 8)
			out["flip"+itoa(k)] = flip
		}
	}
	return out
}

// TestDamagedInput: every truncated or bit-flipped copy of every format
// loads or fails with an error naming the file, the line or byte, and what
// was expected — never a panic. Errors from pprof's own validation of a
// protobuf whose wire structure is sound (a sample with no location, a bad
// string index) carry no position; they name the file and the cause.
func TestDamagedInput(t *testing.T) {
	unplaced := 0
	for file, data := range badInputs(t) {
		for how, bad := range damage(data) {
			name := file + "." + how
			p, err := Parse(name, bad, LoadOptions{})
			switch {
			case err == nil && p == nil:
				t.Errorf("Parse(%s) = nil, nil", name)
			case err == nil:
			case positioned(name).MatchString(err.Error()):
			case strings.HasPrefix(err.Error(), name+": expected a valid pprof protobuf profile: "):
				unplaced++
			default:
				t.Errorf("Parse(%s) error = %q, want %q", name, err, positioned(name))
			}
		}
	}
	t.Logf("%d pprof validation errors without a position", unplaced)
}

// TestTruncationDetected: cuts that leave no valid file are errors at the
// right place.
func TestTruncationDetected(t *testing.T) {
	in := badInputs(t)
	for _, c := range []struct {
		file string
		data []byte
		want string
	}{
		{"devirt.pb", in["devirt.pb"][:len(in["devirt.pb"])-1], `devirt.pb: byte \d+: expected`},
		{"devirt2.pb", in["devirt.pb"][:len(in["devirt.pb"])/2], `devirt2.pb: byte \d+: expected \d+ bytes for field \d+, found \d+`},
		{"devirt.pprof", in["devirt.pprof"][:700], `devirt.pprof: byte \d+: expected valid gzip data`},
		{"toy.hprof", in["profvis-toy.hprof"][:len(in["profvis-toy.hprof"])-20], `toy.hprof: line \d+: expected CPU SAMPLES END`},
		{"toy2.hprof", in["profvis-toy.hprof"][:900], `toy2.hprof: line \d+: expected a CPU SAMPLES BEGIN`},
		{"cut.folded", []byte("a;b 1\na;b"), `cut.folded: line 2: expected "frame;frame;... COUNT"`},
		{"cut.perf", []byte("dd 1 1.0: 1 cpu-clock:\n\t1 f (x)\n\t2 g"), `cut.perf: line 3: expected a perf script event line`},
		{"pprof-fuzz-7e3c9248", in["pprof-fuzz"], ``},
	} {
		if c.data == nil {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			c.data, c.want = data, `pprof-fuzz-7e3c9248: line 2: expected a pprof legacy text profile: .*second value must be non-zero`
		}
		_, err := Parse(c.file, c.data, LoadOptions{})
		if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
			t.Errorf("Parse(%s) error = %v, want %s", c.file, err, c.want)
		}
	}
}

// TestGzipBomb: decompression stops at the limit with an error, long before
// memory runs out.
func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 64 { // 64 MiB of zeros, about 64 KiB compressed
		zw.Write(zero)
	}
	zw.Close()
	_, err := Parse("bomb.gz", buf.Bytes(), LoadOptions{Limit: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "bomb.gz: gzip content exceeds the limit of 1048576 decompressed bytes") {
		t.Errorf("Parse(bomb) error = %v, want the limit", err)
	}
	path := filepath.Join(t.TempDir(), "big.folded")
	os.WriteFile(path, bytes.Repeat([]byte("a;b 1\n"), 1000), 0o644)
	if _, err := Load(path, LoadOptions{Limit: 100}); err == nil || !strings.Contains(err.Error(), "larger than the limit of 100 bytes") {
		t.Errorf("Load(big, limit=100) error = %v, want the limit", err)
	}
}
