package dtrace

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	foldedfmt "github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestDTraceFrames: frame lines of real DTrace outputs (the file each comes
// from is named) become frames named up to their offset, whole.
func TestDTraceFrames(t *testing.T) {
	for _, c := range []struct {
		file, in string
		want     []string
	}{
		{"FlameGraph example-dtrace-stacks.txt", "genunix`kmem_cpu_reload+0x20", []string{"genunix`kmem_cpu_reload"}},
		{"inferno collapse-dtrace/scope_with_no_argument_list.txt", "libjvm.dylib`JavaCalls::call_virtual(JavaValue*, Handle, KlassHandle, Symbol*, Symbol*, Thread*)+0x4a",
			[]string{"libjvm.dylib`JavaCalls::call_virtual(JavaValue*, Handle, KlassHandle, Symbol*, Symbol*, Thread*)"}},
		{"inferno collapse-dtrace/scope_with_no_argument_list.txt", "libjvm.dylib`JavaCalls::call_helper+0x6ae", []string{"libjvm.dylib`JavaCalls::call_helper"}},
		{"inferno collapse-dtrace/rust-names.txt", "rg`std::panicking::try::do_call::h08ca64c12e8a9bb0 (.llvm.15516475458848885060)+0x25",
			[]string{"rg`std::panicking::try::do_call"}},
		{"inferno collapse-dtrace/rust-names.txt", "rg`_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..convert..From$LT$$RF$$u27$a$u20$$u5b$T$u5d$$GT$$GT$::from::hf1c5bb9dd6c517cb+0x28",
			[]string{"rg`<alloc::vec::Vec<T> as core::convert::From<&'a [T]>>::from"}},
		{"inferno collapse-dtrace/rust-names.txt", "libsystem_platform.dylib`_platform_memset$VARIANT$Haswell", []string{"libsystem_platform.dylib`_platform_memset$VARIANT$Haswell"}},
		{"inferno collapse-dtrace/stack-ustack.txt", "cru-ds-fdsync-v1`crucible_downstairs::recv_task::_$u7b$$u7b$closure$u7d$$u7d$::h2313d0ca35c97b46 (.llvm.9599067906520872268)+0x1e8",
			[]string{"cru-ds-fdsync-v1`crucible_downstairs::recv_task::{{closure}}"}},
		{"inferno collapse-dtrace/stack-ustack.txt", "cru-ds-fdsync-v1`<tokio::future::poll_fn::PollFn<F> as core::future::future::Future>::poll::hdb622d175ae42c67+0x376",
			[]string{"cru-ds-fdsync-v1`<tokio::future::poll_fn::PollFn<F> as core::future::future::Future>::poll"}},
		{"inferno collapse-dtrace/java.txt", "test`foo->bar", []string{"test`foo", "bar_[i]"}},
		{"(an offset alone)", "+0x10", []string{"-"}},
		// Perl's split, which stackcollapse.pl splits inline chains with,
		// drops trailing empty fields: "f->" is "f", and "->" no frame.
		{"(a trailing arrow)", "libjvm.so`f->", []string{"libjvm.so`f"}},
		{"(an arrow alone)", "->", nil},
	} {
		if got := dtraceFrames(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: dtraceFrames(%q) = %q, want %q", c.file, c.in, got, c.want)
		}
	}
}

// TestDTraceInferno: the frames of inferno's collapse-dtrace tests
// (jonhoo/inferno 0.12.8) are named as inferno names them, except that
// inferno drops the argument list of a C++ name (one with "::") and keeps
// the "_" rustc puts before a path segment starting with an escape: with
// those undone, folded.Write of each input equals inferno's output.
// inferno's stack-ustack result is no oracle: it cuts names at their last
// '<' ("tokio::runtime::task::harness::Harness<T,S>::poll" becomes
// "…::Harness"), the very cut we do not make; TestDTraceFrames checks
// names of that file.
func TestDTraceInferno(t *testing.T) {
	for _, name := range []string{"rust-names", "scope_with_no_argument_list"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "inferno", name+".txt")
			p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{Format: "dtrace"})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := foldedfmt.Write(&b, p, 0); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "inferno", name+"-collapsed.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := infernoNames(t, b.String()); got != sortedFolded(t, string(want)) {
				t.Errorf("folded output differs from inferno's:\n got  %s\n want %s", got, sortedFolded(t, string(want)))
			}
		})
	}
}

// infernoNames renames the frames of folded stacks as inferno does.
func infernoNames(t *testing.T, stacks string) string {
	var out strings.Builder
	for line := range strings.Lines(stacks) {
		i := strings.LastIndexByte(line, ' ')
		frames := strings.Split(line[:i], ";")
		for j, f := range frames {
			if strings.Contains(f, "::") {
				f = testprof.DropArgs(f)
			}
			frames[j] = strings.NewReplacer("::<", "::_<", "::{{", "::_{{").Replace(f)
		}
		out.WriteString(strings.Join(frames, ";") + line[i:])
	}
	return sortedFolded(t, out.String())
}

// sortedFolded merges and sorts folded stacks.
func sortedFolded(t *testing.T, stacks string) string {
	sums := map[string]int64{}
	for line := range strings.Lines(stacks) {
		line = strings.TrimSuffix(line, "\n")
		i := strings.LastIndexByte(line, ' ')
		n, err := strconv.ParseInt(line[i+1:], 10, 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		sums[line[:i]] += n
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(&b, "%s %d\n", k, sums[k])
	}
	return b.String()
}

var rustHash = regexp.MustCompile(`::h[0-9a-f]{16}$`)

// TestDTraceStackUstack: the Rust frames of inferno's stack-ustack.txt keep
// their generics and lose their hashes and LLVM suffixes.
func TestDTraceStackUstack(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join("testdata", "inferno-stack-ustack.txt"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range p.Frames {
		names[f.Name] = true
		if rustHash.MatchString(f.Name) || strings.Contains(f.Name, ".llvm.") || strings.Contains(f.Name, "$u7b$") {
			t.Errorf("frame %q keeps a hash, an LLVM suffix or an escape", f.Name)
		}
	}
	for _, want := range []string{
		"cru-ds-fdsync-v1`tokio::runtime::task::harness::Harness<T,S>::poll",
		"cru-ds-fdsync-v1`crucible_downstairs::recv_task::{{closure}}",
		"zfs`arc_memory_throttle",
	} {
		if !names[want] {
			t.Errorf("no frame %q among %d", want, len(p.Frames))
		}
	}
}

// TestDTraceErrors: damaged aggregations give errors naming the line and
// what was expected there.
func TestDTraceErrors(t *testing.T) {
	const head = "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n"
	for _, c := range []struct{ in, want string }{
		{head, "in: line 4: expected at least one stack and count after the DTrace header"},
		{head + "  unix`idle+0x1\n  3\n  unix`idle+0x1\n", "in: line 6: expected the count of the last stack before the end of the file (truncated?)"},
		{head + "  unix`idle+0x1\n  99999999999999999999\n", `in: line 5: expected a sample count, got "99999999999999999999"`},
	} {
		_, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{Format: "dtrace"})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) error = %v\nwant %s", c.in, err, c.want)
		}
		testprof.CheckError(t, "in", err)
	}
}
