package dtrace

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// folded renders a profile as sorted "stack count" lines.
func folded(p *analysis.Profile) []string {
	var out []string
	for i := range p.Samples {
		s := &p.Samples[i]
		out = append(out, testprof.StackNames(p, s)+" "+strconv.FormatInt(p.Value(s, 0), 10))
	}
	slices.Sort(out)
	return out
}

// TestInfernoHeaders: inferno's test inputs with a header of other lines
// ("header", "header2") and with several blank lines after it load, and
// give the stacks and counts of inferno's own expected output. Inferno cuts
// names at their last '<' ("…::FramedImpl<T,U,R> as …::poll_next" becomes
// "…::FramedImpl"), which this loader does not (TestDTraceStackUstack
// checks those names), so stack-ustack's stacks are compared by depth, the
// leaf's module and count.
func TestInfernoHeaders(t *testing.T) {
	for _, c := range []struct {
		name string
		key  func(stack string) string
	}{
		{"testdata/inferno-java.txt", func(s string) string { return s }},
		{"testdata/inferno-stack-ustack.txt", depthAndLeaf},
	} {
		p, err := analysis.Load(context.Background(), c.name, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		testprof.Check(t, c.name, p)
		want, err := os.ReadFile(c.name + ".collapsed")
		if err != nil {
			t.Fatal(err)
		}
		keys := func(lines []string) []string {
			var out []string
			for _, l := range lines {
				i := strings.LastIndexByte(l, ' ')
				out = append(out, c.key(l[:i])+" "+l[i+1:])
			}
			slices.Sort(out)
			return out
		}
		got, exp := keys(folded(p)), keys(strings.Split(strings.TrimSpace(string(want)), "\n"))
		if p.Format != "dtrace" || !slices.Equal(got, exp) {
			t.Errorf("%s: format %s, stacks\n%s\nwant (inferno)\n%s", c.name, p.Format, strings.Join(got, "\n"), strings.Join(exp, "\n"))
		}
	}
}

// depthAndLeaf keys a folded stack by its depth and its leaf frame's
// module.
func depthAndLeaf(stack string) string {
	frames := strings.Split(stack, ";")
	module, _, _ := strings.Cut(frames[len(frames)-1], "`")
	return strconv.Itoa(len(frames)) + " " + module
}

// TestHeaderVariants: the headers dtrace writes in other setups.
func TestHeaderVariants(t *testing.T) {
	const stacks = "              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                12\n\n" +
		"              unix`idle+0x1\n                3\n"
	for _, c := range []struct{ name, in, warn string }{
		{"usual", "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n" + stacks, ""},
		{"with stderr", "dtrace: description 'profile-997 ' matched 2 probes\nCPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n" + stacks, ""},
		{"quiet (dtrace -q)", "\n" + stacks, ""},
		{"no header", stacks, ""},
		{"drops", "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n" +
			"dtrace: 1519 dynamic variable drops on CPU 0\n" + stacks, "1 lines of dtrace's own messages"},
	} {
		p, err := analysis.Parse(context.Background(), c.name, []byte(c.in), analysis.LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := folded(p)
		want := []string{"unix`idle 3", "unix`sys_syscall;genunix`vn_free 12"}
		if p.Format != "dtrace" || !slices.Equal(got, want) {
			t.Errorf("%s: format %s, %q; want dtrace, %q", c.name, p.Format, got, want)
		}
		if w := strings.Join(p.Warnings, ";"); !strings.Contains(w, c.warn) || c.warn == "" && w != "" {
			t.Errorf("%s: warnings %q, want %q", c.name, w, c.warn)
		}
	}
	_, err := analysis.Parse(context.Background(), "in", []byte("CPU     ID                    FUNCTION:NAME\n  8  35077                        :tick-60s\n"), analysis.LoadOptions{})
	if err == nil || err.Error() != "in: line 2: expected a blank line after the DTrace header (2 lines), then the stacks" {
		t.Errorf("header only: error %v", err)
	}
}

// TestSniff: what the sniffer takes for DTrace output without the usual
// column header. It sees the whole of a short file, and at most 4096
// bytes of a longer one, whose last line may be cut.
func TestSniff(t *testing.T) {
	deep := "\n" + strings.Repeat("              unix`thread_start+0x8\n", 200)
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"no header, no final newline", "  unix`idle+0x1\n  3", true},
		{"dtrace -q, a message among the stacks", "\n  dtrace: 3 drops on CPU 0\n  unix`idle+0x1\n  3\n", true},
		{"frames of a stack longer than the head", deep[:4096], true},
		{"the whole file, frames without a count", "\n  unix`idle+0x1\n  unix`thread_start+0x8\n", false},
		{"lines without a blank one", "total 12\ndrwxr-xr-x 2 root root", false},
		{"a head of lines without a blank one", strings.Repeat("drwxr-xr-x 2 root root\n", 200)[:4096], false},
		{"a header, then text", "header\n\nhello world\n3\n", false},
	} {
		if got := sniff([]byte(c.head)); got != c.want {
			t.Errorf("%s: sniff(%q) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}

// TestBareAddresses: ustack() prints an unresolved frame as a bare address,
// which starts the stacks of a file without header like a symbol does; a
// first line starting with "0x" but not an address is a header.
func TestBareAddresses(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"addresses", "              0x104d08831\n              0x104d0a000\n              4\n", []string{"0x104d0a000;0x104d08831 4"}},
		{"a header starting with 0x", "0x1f probes fired\n\n              unix`idle+0x1\n              2\n", []string{"unix`idle 2"}},
	} {
		p, err := analysis.Parse(context.Background(), c.name, []byte(c.in), analysis.LoadOptions{Format: "dtrace"})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := folded(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: stacks %q, want %q", c.name, got, c.want)
		}
	}
}
