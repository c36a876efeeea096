package formats

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
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
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(c.file)] = data
	}
	demo, err := demoFiles.ReadFile("demo/profvis-toy.hprof")
	if err != nil {
		t.Fatal(err)
	}
	out["profvis-toy.hprof"] = demo
	raw, err := gunzip(out["devirt.pprof"])
	if err != nil {
		t.Fatal(err)
	}
	out["devirt.pb"] = raw
	out["small.dtrace"] = []byte("CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n" +
		"              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                12\n\n" +
		"              unix`idle+0x1\n                3\n")
	return out
}

// gunzip decompresses gzip data.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// damage returns truncated and bit-flipped copies of data, deterministically.
func damage(data []byte) map[string][]byte {
	out := map[string][]byte{}
	for i := 1; i < 16; i++ {
		n := len(data) * i / 16
		out["cut"+strconv.Itoa(n)] = data[:n]
		flip := append([]byte(nil), data...)
		k := (len(data)*i)/16 + i
		if k < len(flip) {
			flip[k] ^= 1 << (i % 8)
			out["flip"+strconv.Itoa(k)] = flip
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
			p, err := analysis.Parse(context.Background(), name, bad, analysis.LoadOptions{})
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
		{"cut.perf", []byte("dd 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n\t2 g (/bi"), `cut.perf: line 3: expected at least one complete perf script sample; the file ends in the middle of this line`},
		{"pprof-fuzz-7e3c9248", in["pprof-fuzz"], ``},
	} {
		if c.data == nil {
			data, err := os.ReadFile(filepath.Join("..", "pprof", "testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			c.data, c.want = data, `pprof-fuzz-7e3c9248: line 2: expected a pprof legacy text profile: .*second value must be non-zero`
		}
		_, err := analysis.Parse(context.Background(), c.file, c.data, analysis.LoadOptions{})
		if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
			t.Errorf("Parse(%s) error = %v, want %s", c.file, err, c.want)
		}
	}
}
