package callgrind

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// load parses a callgrind file given as text.
func load(t *testing.T, name, data string, opts analysis.LoadOptions) *analysis.Profile {
	t.Helper()
	if opts.Format == "" {
		opts.Format = "callgrind"
	}
	p, err := analysis.Parse(context.Background(), name, []byte(data), opts)
	if err != nil {
		t.Fatal(err)
	}
	testprof.Check(t, name, p)
	return p
}

// dump renders the call tree of p, one node a line in pre-order: its path,
// its total and self cost in the first event, and its call count.
func dump(p *analysis.Profile) string {
	t := analysis.NewTree(p)
	calls := p.ValueIndex(Calls.Type)
	var b strings.Builder
	for n := int32(0); n < int32(t.Len()); n++ {
		fmt.Fprintf(&b, "%s %d/%d ×%d\n", path(t, n), t.Total[0][n], t.Self[0][n], t.Self[calls][n])
	}
	return b.String()
}

func path(t *analysis.Tree, n int32) string {
	var names []string
	for ; n >= 0; n = t.Parent[n] {
		names = append([]string{t.Name(n)}, names...)
	}
	return strings.Join(names, ";")
}

// The specification's extended example (with name compression): main
// calls func1 once and func2 three times, func1 calls func2 twice. func2
// is reached along two paths; its cost divides by the calls' own figures.
const specExample = `# callgrind format
events: Instructions
fl=(1) file1.c
fn=(1) main
16 20
cfn=(2) func1
calls=1 50
16 400
cfi=(2) file2.c
cfn=(3) func2
calls=3 20
16 400
fn=(2)
51 100
cfi=(2)
cfn=(3)
calls=2 20
51 300
fl=(2)
fn=(3)
20 700
`

func TestSpecExample(t *testing.T) {
	p := load(t, "spec.out", specExample, analysis.LoadOptions{})
	want := "main 820/20 ×1\nmain;func1 400/100 ×1\nmain;func1;func2 300/300 ×2\nmain;func2 400/400 ×3\n"
	if got := dump(p); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if got := p.Frames[2]; got.Name != "func2" || got.File != "file2.c" {
		t.Errorf("func2's frame = %+v, want its file from cfi=", got)
	}
}

// TestUnrolling: the construction of unroll.go on small graphs worked by
// hand.
func TestUnrolling(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"recursion contexts", // callgrind's default --separate-recs=2: f, then f'2 for deeper calls
			"events: Ir\nfl=a.c\nfn=main\n1 10\ncfn=f\ncalls=1 1\n1 100\n" +
				"fn=f\n1 30\ncfn=f'2\ncalls=2 1\n1 70\n" +
				"fn=f'2\n1 70\ncfn=f'2\ncalls=5 1\n1 200\n",
			"main 110/10 ×1\nmain;f 100/30 ×1\nmain;f;f 70/70 ×2\nmain;f;f;f 0/0 ×5\n"},
		{"mutual recursion", // a and b call each other: a cycle, costed as a whole
			"events: Ir\nfn=main\n1 1\ncfn=a\ncalls=2 1\n1 60\n" +
				"fn=a\n1 20\ncfn=b\ncalls=3 1\n1 50\ncfn=x\ncalls=4 1\n1 8\n" +
				"fn=b\n1 32\ncfn=a\ncalls=1 1\n1 40\n" +
				"fn=x\n1 8\n",
			"main 61/1 ×1\nmain;a 60/20 ×2\nmain;a;b 32/32 ×3\nmain;a;b;a 0/0 ×1\nmain;a;x 8/8 ×4\n"},
		{"two callers", // speedscope's example: backup's callees divide by the average
			"events: t\nfn=start\n1 0\ncfn=backup\ncalls=1 1\n1 4\n" +
				"fn=end\n1 0\ncfn=backup\ncalls=1 1\n1 4\n" +
				"fn=backup\n1 0\ncfn=read\ncalls=1 1\n1 4\ncfn=write\ncalls=1 1\n1 4\n" +
				"fn=read\n1 4\nfn=write\n1 4\n",
			"end 4/0 ×1\nend;backup 4/0 ×1\nend;backup;read 2/2 ×1\nend;backup;write 2/2 ×1\n" +
				"start 4/0 ×1\nstart;backup 4/0 ×1\nstart;backup;read 2/2 ×1\nstart;backup;write 2/2 ×1\n"},
		{"cost without a caller", // g ran 10 units with no recorded caller: a root for the rest
			"events: Ir\nfn=main\n1 5\ncfn=g\ncalls=3 1\n1 30\nfn=g\n1 40\n",
			"g 10/10 ×1\nmain 35/5 ×1\nmain;g 30/30 ×3\n"},
		// m's cost 7 of 10 divides as 0.7, 2.1, 2.1, 2.1: the largest remainder (self's) gets
		// the unit left; from n, 3 of 10 gives 0.3, 0.9, 0.9, 0.9, and the callees get the
		// three units. m's calls from r are half of its calls: x's 0.5 rounds up.
		{"uneven shares",
			"events: Ir\nfn=r\n1 0\ncfn=m\ncalls=1 1\n1 7\ncfn=n\ncalls=1 1\n1 3\n" +
				"fn=n\n1 0\ncfn=m\ncalls=1 1\n1 3\n" +
				"fn=m\n1 1\ncfn=x\ncalls=1 1\n1 3\ncfn=y\ncalls=3 1\n1 3\ncfn=z\ncalls=1 1\n1 3\n" +
				"fn=x\n1 3\nfn=y\n1 3\nfn=z\n1 3\n",
			"r 10/0 ×1\nr;m 7/1 ×1\nr;m;x 2/2 ×1\nr;m;y 2/2 ×2\nr;m;z 2/2 ×1\nr;n 3/0 ×1\nr;n;m 3/0 ×1\nr;n;m;x 1/1 ×1\nr;n;m;y 1/1 ×2\nr;n;m;z 1/1 ×1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := dump(load(t, "in", c.in, analysis.LoadOptions{})); got != c.want {
				t.Errorf("tree:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestFormatDetails: subposition compression, hexadecimal, fewer costs
// than events, fi= naming the callee's file and making the code after it
// main's code inlined from inline.h (callgrind_annotate's
// "inline.h:main", which calls helper), cob=, jumps and unknown lines
// skipped, "totals:" checked.
func TestFormatDetails(t *testing.T) {
	in := `# callgrind format
version: 1
creator: hand
positions: instr line
events: Ir Dr
thread: 2
ob=app
fl=main.c
fn=main
0x10 3 5 1
+2 +1 0x10
jump=3 +4 *
* *
fi=inline.h
cfn=helper
calls=2 0x20 9
* * 20 4
fe=main.c
cob=libc.so
cfn=puts
calls=1 0x30 1
+1 -1 7
rec=2
fl=inline.h
fn=helper
0x20 9 20 4
ob=libc.so
fl=main.c
fn=puts
0x30 1 7
totals: 48 5
`
	p := load(t, "details.out", in, analysis.LoadOptions{})
	if got, want := dump(p), "main 48/21 ×1\nmain;main [inlined from inline.h] 20/0 ×0\nmain;main [inlined from inline.h];helper 20/20 ×2\nmain;puts 7/7 ×1\n"; got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if len(p.Warnings) != 0 || p.Total(1) != 5 || p.Thread(&p.Samples[0]) != "thread 2" {
		t.Errorf("warnings %q, Dr total %d, thread %q; want none, 5, thread 2", p.Warnings, p.Total(1), p.Thread(&p.Samples[0]))
	}
	p = load(t, "bad-totals.out", strings.Replace(in, "totals: 48 5", "totals: 50 5", 1), analysis.LoadOptions{})
	if want := "the file's totals give 50 Ir, its cost lines 48"; len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"events: Ir\nfn=a\n1 2 3\n", "in: line 3: expected at most 1 costs (events: [Ir]), got 2"},
		{"events: Ir\nfn=a\n1 x\n", `in: line 3: expected a cost for Ir, got "x"`},
		{"events: Ir\nfn=a\nq 1\n", `in: line 3: expected a cost line, a NAME=VALUE line or a "key: value" header, got "q 1"`},
		{"events: Ir\n1 1\n", "in: line 2: expected fn= before the first cost line"},
		{"fn=a\n1 1\n", `in: line 1: expected an "events:" line before fn=`},
		{"cfn=a\n", `in: line 1: expected an "events:" line before cfn=`},
		{"events: Ir\nfn=(1\n", `in: line 2: expected a compressed name "(id) name" or "(id)", got "(1"`},
		{"events: Ir\nfn=(3)\n", "in: line 2: name (3) is used before a line defines it"},
		{"events: Ir\nfn=a\ncalls=1 1\n", "in: line 3: expected fn= and cfn= before calls="},
		{"events: Ir\nfn=a\ncfn=b\ncalls=1 1\n", "in: line 5: expected the cost line of the calls= on line 4 before the end of the file (truncated?)"},
		{"events: Ir\nfn=a\ncfn=b\ncalls=1 1\nfn=b\n", `in: line 5: expected the cost line of the calls= on line 4, got "fn=b"`},
		{"events: Ir\nfn=a\ncfn=b\ncalls=x\n", `in: line 4: expected calls=COUNT TARGET-POSITION, got calls="x"`},
		{"events: Ir\npositions: line instr\nfn=a\n1\n", `in: line 4: expected 2 subposition(s) and costs, got "1"`},
		{"events: Ir\nfn=a\n1x 1\n", `in: line 3: expected a subposition (N, 0xN, +N, -N or *), got "1x"`},
		{"events: Ir\npositions: addr\n", `in: line 2: expected positions among instr, bb and line, got "addr"`},
		{"events: Ir\nevents: Dr\n", "in: line 2: expected the events of the first part ([Ir]), got [Dr]: parts with other events are not supported"},
		{"version: 1\n", `in: line 2: expected an "events:" line (is this a callgrind file?)`},
		{"events: Ir\n", "in: line 2: expected at least one function (fn=) with its costs"},
	} {
		_, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{Format: "callgrind"})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %v, want %s", c.in, err, c.want)
			continue
		}
		testprof.CheckError(t, "in", err)
	}
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"# callgrind format\nversion: 1\n", true},
		{"version: 1\ncreator: xdebug 3.0.2\ncmd: index.php\n\nevents: Time_(10ns) Memory_(bytes)\n", true},
		{"events: Ir\nfn=main\n", true},
		{"version: 1\ncreator: x\n", false}, // no events line in the head
		{"main;f 1\n", false},
		{"heap profile: 1: 2 [3: 4] @ heap/1048576\n", false},
	} {
		if got := sniff([]byte(c.in)); got != c.want {
			t.Errorf("sniff(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestPathBudget: a chain of 40 diamonds unrolls into 2^40 call paths;
// under max-samples=500, or max-stack-frames=3000, the heaviest are
// expanded, the rest keep their callees' cost, and every total is kept.
func TestPathBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("events: Ir\n")
	const n = 40
	for i := 0; i < n; i++ { // f_i costs 6(n-i): 2 of its own, a_i's and b_i's
		fmt.Fprintf(&b, "fn=f%d\n1 2\n", i)
		for _, side := range []string{"a", "b"} {
			fmt.Fprintf(&b, "cfn=%s%d\ncalls=1 1\n1 %d\n", side, i, 2+3*(n-1-i))
		}
		for _, side := range []string{"a", "b"} {
			fmt.Fprintf(&b, "fn=%s%d\n1 2\n", side, i)
			if i+1 < n {
				fmt.Fprintf(&b, "cfn=f%d\ncalls=1 1\n1 %d\n", i+1, 3*(n-1-i))
			}
		}
	}
	p := load(t, "diamonds.out", b.String(), analysis.LoadOptions{Limits: analysis.Limits{Samples: 500}})
	if len(p.Samples) > 500 || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "(500 paths, 20000000 stack frames)") {
		t.Fatalf("%d samples, warnings %q; want at most 500 and one warning", len(p.Samples), p.Warnings)
	}
	if got, want := p.Total(0), int64(6*n); got != want {
		t.Errorf("total %d, want %d", got, want)
	}
	// The same under max-stack-frames=3000: deep paths cost more.
	p = load(t, "diamonds.out", b.String(), analysis.LoadOptions{Limits: analysis.Limits{StackFrames: 3000}})
	frames := 0
	for _, st := range p.Stacks.All() {
		frames += len(st)
	}
	if frames > 3000 || len(p.Warnings) != 1 || p.Total(0) != int64(6*n) {
		t.Errorf("%d stack frames, warnings %q, total %d; want at most 3000, one warning, %d", frames, p.Warnings, p.Total(0), 6*n)
	}
}

func TestCorpus(t *testing.T) {
	dir := testprof.Corpus(t) + "/speedscope/sample/profiles/callgrind/"
	for _, c := range []struct{ file, want string }{
		{"callgrind.example.log", "main 820/20 ×1\nmain;func1 400/100 ×1\nmain;func1;func2 300/300 ×2\nmain;func2 400/400 ×3\n"},
		{"callgrind.name-compression.log", "main 820/20 ×1\nmain;func1 400/100 ×1\nmain;func1;func2 300/300 ×2\nmain;func2 400/400 ×3\n"},
		{"callgrind.multiple-event-types.log", "main 820/20 ×1\nmain;func1 400/100 ×1\nmain;func1;func2 300/300 ×2\nmain;func2 400/400 ×3\n"},
		// delta's gamma is the alpha.c function (no cfl= before it): alpha calls it
		// twice, directly and through delta.
		{"callgrind.cfn-reset.log", "alpha 50/10 ×1\nalpha;beta 10/10 ×1\nalpha;delta 20/10 ×1\nalpha;delta;gamma 10/10 ×1\nalpha;gamma 10/10 ×1\n"},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(dir + c.file)
			if err != nil {
				t.Skip(err)
			}
			p := load(t, c.file, string(data), analysis.LoadOptions{Format: "auto"})
			if got := dump(p); got != c.want {
				t.Errorf("tree:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
	// Its costs are "compressed" as subpositions are ("* *", "+35 -300"),
	// which the format does not allow (callgrind_annotate reads them as 0
	// and -300): an error, at the first.
	data, err := os.ReadFile(dir + "callgrind.subposition-compression.log")
	if err != nil {
		t.Skip(err)
	}
	_, err = analysis.Parse(context.Background(), "sub.log", data, analysis.LoadOptions{})
	if want := `sub.log: line 13: expected a cost for Instructions, got "*"`; err == nil || err.Error() != want {
		t.Errorf("Parse = %v, want %s", err, want)
	}
}

// A summary that wrapped below zero (crabgrind writes 18446744073709551395)
// is read, with a warning, and the cost lines give the totals.
func TestWrappedSummary(t *testing.T) {
	in := "# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 100\nsummary: 18446744073709551395\ntotals: 18446744073709551395\n"
	p := load(t, "wrapped.out", in, analysis.LoadOptions{})
	if p.Total(0) != 100 || len(p.Warnings) != 2 || !strings.Contains(p.Warnings[0], "wrapped below zero") ||
		!strings.Contains(p.Warnings[1], "the file's totals give -221 Ir, its cost lines 100") {
		t.Errorf("total %d, warnings %q; want 100 and the wrapped totals said", p.Total(0), p.Warnings)
	}
}

// The file's total is its "totals:" line, or its "summary:" line when it
// has none; either is checked against the cost lines.
func TestTotalsLines(t *testing.T) {
	body := "events: Ir\nfl=a.c\nfn=main\n1 48\n"
	for _, c := range []struct{ name, in, want string }{
		{"summary alone", "events: Ir\nsummary: 50\nfl=a.c\nfn=main\n1 48\n", "the file's totals give 50 Ir, its cost lines 48"},
		{"summary, then totals", "events: Ir\nsummary: 50\nfl=a.c\nfn=main\n1 48\ntotals: 48\n", ""},
		{"totals, then summary", body + "totals: 48\nsummary: 50\n", ""},
		{"totals disagree", "events: Ir\nsummary: 48\nfl=a.c\nfn=main\n1 48\ntotals: 50\n", "the file's totals give 50 Ir, its cost lines 48"},
	} {
		p := load(t, c.name, c.in, analysis.LoadOptions{})
		if got := strings.Join(p.Warnings, "; "); got != c.want {
			t.Errorf("%s: warnings %q, want %q", c.name, got, c.want)
		}
	}
}

// A call counted zero times (calls=0) still has its inclusive cost on the
// line after it, as callgrind_annotate reads it: the caller's inclusive
// cost holds it, not its self cost.
func TestZeroCalls(t *testing.T) {
	p := load(t, "zero.out", "events: Ir\nfl=a.c\nfn=main\n1 10\ncfn=f\ncalls=0 1\n1 5\nfn=f\n1 5\n", analysis.LoadOptions{})
	if got, want := dump(p), "main 15/10 ×1\nmain;f 5/5 ×0\n"; got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// Lines of keys this reader does not know (later versions of the format,
// any lower-case word) are skipped, as the format asks.
func TestUnknownKeys(t *testing.T) {
	p := load(t, "keys.out", "events: Ir\nfl=a.c\nfn=main\nzap=1 2\nbuzz: 3\n1 10\n", analysis.LoadOptions{})
	if got, want := dump(p), "main 10/10 ×1\n"; got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// The profile's samples come heaviest first (by inclusive cost), and call
// paths of equal weight in the order the file gives their functions, so
// that ties read the same in every view and on every run.
func TestFileOrder(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"events: Ir\nfn=c\n1 5\nfn=a\n1 5\ncfn=d\ncalls=1 1\n1 2\nfn=e\n1 5\nfn=b\n1 7\nfn=d\n1 2\n", "a b c e a;d"},
		// p ran 10 units with no recorded caller: a root after main, which
		// weighs as much and comes first in the file.
		{"events: Ir\nfn=main\n1 5\ncfn=p\ncalls=1 1\n1 5\nfn=p\n1 15\n", "main p main;p"},
	} {
		p := load(t, "order.out", c.in, analysis.LoadOptions{})
		var paths []string
		for i := range p.Samples {
			var names []string
			for _, f := range p.Stacks.At(p.Samples[i].Stack) {
				names = append(names, p.Frames[f].Name)
			}
			paths = append(paths, strings.Join(names, ";"))
		}
		if got := strings.Join(paths, " "); got != c.want {
			t.Errorf("samples' paths %q, want %q", got, c.want)
		}
	}
}

// TestLimitsFit: a profile whose call paths fit max-samples exactly is
// unrolled whole, and one path fewer folds some; under max-stack-frames,
// whose count is high (unroll.go: by a frame per node where there is no
// recursion), a limit of the frames the paths need plus one per path
// unrolls an acyclic graph whole, and one below the frames they need folds
// some.
func TestLimitsFit(t *testing.T) {
	var diamonds strings.Builder
	diamonds.WriteString("events: Ir\n")
	for i := range 5 {
		fmt.Fprintf(&diamonds, "fn=f%d\n1 2\ncfn=a%d\ncalls=1 1\n1 %d\ncfn=b%d\ncalls=2 1\n1 %d\n", i, i, 2+3*(4-i), i, 2+3*(4-i))
		for _, side := range []string{"a", "b"} {
			fmt.Fprintf(&diamonds, "fn=%s%d\n1 2\n", side, i)
			if i < 4 {
				fmt.Fprintf(&diamonds, "cfn=f%d\ncalls=1 1\n1 %d\n", i+1, 3*(4-i))
			}
		}
	}
	var chain strings.Builder // z0 → z1 → … → z9: a path deep below a recursion
	for i := range 10 {
		fmt.Fprintf(&chain, "fn=z%d\n1 1\n", i)
		if i < 9 {
			fmt.Fprintf(&chain, "cfn=z%d\ncalls=1 1\n1 %d\n", i+1, 9-i)
		}
	}
	for name, in := range map[string]string{"spec": specExample, "diamonds": diamonds.String(),
		"mutual recursion": "events: Ir\nfn=main\n1 1\ncfn=a\ncalls=2 1\n1 60\nfn=a\n1 20\ncfn=b\ncalls=3 1\n1 50\ncfn=x\ncalls=4 1\n1 8\nfn=b\n1 32\ncfn=a\ncalls=1 1\n1 40\nfn=x\n1 8\n",
		"recursion with callees": "events: Ir\nfn=main\n1 1\ncfn=a\ncalls=2 1\n1 70\nfn=a\n1 20\ncfn=b\ncalls=3 1\n1 50\nfn=b\n1 12\ncfn=a\ncalls=1 1\n1 40\ncfn=y\ncalls=2 1\n1 18\n" +
			"fn=y\n1 8\ncfn=z0\ncalls=5 1\n1 10\n" + chain.String(),
	} {
		whole := load(t, name, in, analysis.LoadOptions{})
		samples, frames := len(whole.Samples), 0
		for i := range whole.Samples {
			frames += len(whole.Stacks.At(whole.Samples[i].Stack))
		}
		for _, c := range []struct {
			limits analysis.Limits
			folded bool
		}{
			{analysis.Limits{Samples: int64(samples)}, false},
			{analysis.Limits{Samples: int64(samples - 1)}, true},
			{analysis.Limits{StackFrames: int64(frames + samples)}, false},
			{analysis.Limits{StackFrames: int64(frames - 1)}, true},
		} {
			if strings.Contains(name, "recursion") && c.limits.StackFrames > int64(frames) {
				continue // a cycle's nodes are all counted as deep as its deepest
			}
			p := load(t, name, in, analysis.LoadOptions{Limits: c.limits})
			if folded := len(p.Warnings) > 0; folded != c.folded || !folded && dump(p) != dump(whole) {
				t.Errorf("%s under %+v: warnings %q, tree:\n%s\nwant folded %v", name, c.limits, p.Warnings, dump(p), c.folded)
			}
			if p.Total(0) != whole.Total(0) {
				t.Errorf("%s under %+v: total %d, want %d", name, c.limits, p.Total(0), whole.Total(0))
			}
		}
		// Under every limit, the profile loads (folded), stays within the limit
		// and keeps the total.
		for limit := 1; limit <= frames+samples; limit++ {
			p, err := analysis.Parse(context.Background(), name, []byte(in), analysis.LoadOptions{Format: "callgrind", Limits: analysis.Limits{StackFrames: int64(limit)}})
			if err != nil { // each graph has one root: it always fits
				t.Errorf("%s under %d stack frames: %v, want a folded profile", name, limit, err)
				continue
			}
			got := 0
			for i := range p.Samples {
				got += len(p.Stacks.At(p.Samples[i].Stack))
			}
			if got > limit || p.Total(0) != whole.Total(0) {
				t.Errorf("%s under %d stack frames: %d frames, total %d; want at most %d, %d", name, limit, got, p.Total(0), limit, whole.Total(0))
			}
		}
	}
}

// A call that costs nothing still counts: the callee's node has the
// file's calls=, and a function entered only by such calls is no root.
func TestZeroCostCalls(t *testing.T) {
	p := load(t, "free.out", "events: Ir\nfn=main\n1 10\ncfn=f\ncalls=3 1\n1 0\nfn=f\n1 0\n", analysis.LoadOptions{})
	if got, want := dump(p), "main 10/10 ×1\nmain;f 0/0 ×3\n"; got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// An event that is zero everywhere changes nothing of the tree: its call
// counts and its other events' costs are those of the file without it,
// the cost without a recorded caller included.
func TestZeroEvent(t *testing.T) {
	in := "events: B\nfn=main\n1 5\ncfn=g\ncalls=3 1\n1 30\nfn=g\n1 20\ncfn=h\ncalls=4 1\n1 20\nfn=h\n1 20\n"
	withA := strings.NewReplacer("events: B", "events: A B", "\n1 ", "\n1 0 ").Replace(in)
	one, two := load(t, "b.out", in, analysis.LoadOptions{}), load(t, "ab.out", withA, analysis.LoadOptions{})
	t1, t2 := analysis.NewTree(one), analysis.NewTree(two)
	if t1.Len() != t2.Len() {
		t.Fatalf("%d nodes, want %d", t2.Len(), t1.Len())
	}
	for n := int32(0); n < int32(t1.Len()); n++ {
		if path(t1, n) != path(t2, n) || t1.Total[0][n] != t2.Total[1][n] || t1.Self[1][n] != t2.Self[2][n] || t2.Total[0][n] != 0 {
			t.Errorf("node %s: B %d ×%d (A %d), want %s: B %d ×%d", path(t2, n), t2.Total[1][n], t2.Self[2][n], t2.Total[0][n], path(t1, n), t1.Total[0][n], t1.Self[1][n])
		}
	}
}
