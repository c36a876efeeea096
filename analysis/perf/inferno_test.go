package perf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestPerfInferno: with its default options the loader names frames as
// inferno's collapse-perf (jonhoo/inferno 0.12.8) does, except that inferno
// drops a trailing argument list ("operator()" → "operator") and keeps
// the "_" that rustc puts before a path segment starting with an escaped
// character ("_<impl [T]>", "_{{closure}}"), which rustc-demangle and we
// drop: folded.Write of the input, with those two differences undone,
// equals inferno's expected output.
func TestPerfInferno(t *testing.T) {
	for _, c := range []struct {
		input, want string
		o           perfOptions
	}{
		{"testdata/inferno/cpp-stacks-std-function.txt", "cpp-stacks-std-function-collapsed.txt", perfOptions{}},
		{"corpus:flamegraph/test/perf-rust-Yamakaky-dcpu.txt", "perf-rust-Yamakaky-dcpu-collapsed-all.txt", perfOptions{kernel: true, jit: true}},
	} {
		t.Run(c.want, func(t *testing.T) {
			input := c.input
			if rel, ok := strings.CutPrefix(input, "corpus:"); ok {
				input = testprof.CorpusFile(t, rel)
			}
			data, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			p, err := parseWith(&analysis.Input{Name: input, Data: data}, c.o)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := folded.Write(&b, p, 1); err != nil {
				t.Fatal(err)
			}
			got := infernoNames(t, b.String())
			want := cleanFolded(t, filepath.Join("testdata", "inferno", c.want))
			if !bytes.Equal(got, want) {
				t.Errorf("folded output differs from inferno's %s:\n%s", c.want, firstDiff(string(got), string(want)))
			}
		})
	}
}

// infernoNames rewrites folded stacks as inferno names their frames: a
// trailing argument list dropped, "_" put back before a path segment
// that starts with "<" or "{".
func infernoNames(t *testing.T, stacks string) []byte {
	dir := t.TempDir()
	var out strings.Builder
	for line := range strings.Lines(stacks) {
		i := strings.LastIndexByte(line, ' ')
		frames := strings.Split(line[:i], ";")
		for j, f := range frames {
			frames[j] = underscored.Replace(testprof.DropArgs(f))
		}
		out.WriteString(strings.Join(frames, ";") + line[i:])
	}
	path := filepath.Join(dir, "stacks")
	if err := os.WriteFile(path, []byte(out.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return cleanFolded(t, path)
}

// underscored puts back the "_" that rustc writes before a path segment
// starting with an escape ("_$LT$impl…", "_$u7b$$u7b$closure…").
var underscored = strings.NewReplacer("::<", "::_<", "::{{", "::_{{")
