package perf

import (
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestPerfNames: the default names of real stack lines (the file each comes
// from is named) end where perf says a name ends: before the "+0x…" offset
// and the " (dso)" suffix, never inside an argument list or a template.
func TestPerfNames(t *testing.T) {
	for _, c := range []struct {
		file, line, want string
	}{
		// inferno tests/data/collapse-perf/cpp-stacks-std-function.txt
		{"cpp-stacks-std-function", "\t    561aa58dc06e std::function<int (int, int)>::operator() (/home/user/genperf/perf_stacks)",
			"std::function<int (int, int)>::operator()"},
		{"cpp-stacks-std-function", "\t    561aa58dbcc3 std::_Function_handler<int (int, int), main::{lambda(int, int)#1}>::_M_invoke (/home/user/genperf/perf_stacks)",
			"std::_Function_handler<int (int, int), main::{lambda(int, int)#1}>::_M_invoke"},
		// FlameGraph test/perf-java-stacks-01.txt
		{"perf-java-stacks-01", "\t    7f1d1d7ff0d3 JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*) (/usr/lib/jvm/jdk1.8.0_60_b19/jre/lib/amd64/server/libjvm.so)",
			"JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)"},
		// FlameGraph test/perf-java-faults-01.txt, perf-java-stacks-02.txt (perf-map-agent)
		{"perf-java-faults-01", "\t    7fcf73173544 Ljava/util/concurrent/ThreadPoolExecutor$Worker;::run (/tmp/perf-43287.map)",
			"java/util/concurrent/ThreadPoolExecutor$Worker.run"},
		{"perf-java-stacks-02", "7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)", "java/io/PrintStream.print"},
		// FlameGraph test/perf-rust-Yamakaky-dcpu.txt
		{"perf-rust-Yamakaky-dcpu", "\t    55d6b0e8a6ff _$LT$$RF$$u27$a$u20$mut$u20$I$u20$as$u20$core..iter..iterator..Iterator$GT$::next::h01cfe524df2e1837+0xffff53cc2fce4020 (/home/yamakaky/dev/rust/dcpu/target/debug/emulator)",
			"<&'a mut I as core::iter::iterator::Iterator>::next"},
		// speedscope sample/profiles/linux-perf/rust-mangled.linux-perf.txt (Rust v0 symbols)
		{"rust-mangled.linux-perf", "\t    aaaac1469a1c _RINvNtCse0yjq9ZQveU_3std2rt10lang_startuECs8K9WJNlS7Dz_5trace+0x50 (/trace/target/debug/deps/trace-0f0e4af093fa4f97)",
			"std::rt::lang_start::<()>"},
		// FlameGraph test/perf-js-stacks-01.txt
		{"perf-js-stacks-01", "\t    1e8b7ab3a0c3 LazyCompile:~body_0 evalmachine.<anonymous>:1 (/tmp/perf-31912.map)", "LazyCompile:~body_0 evalmachine.<anonymous>:1"},
		{"perf-js-stacks-01", "\t    13a80b608e0a RegExp:[&<>\\\"\\'] (/tmp/perf-7539.map)", `RegExp:[&<>\"\']`},
	} {
		pp := &perfParser{in: &analysis.Input{Name: c.file}, pname: "proc", cache: [2]map[string][]int32{{}, {}}}
		if !pp.frameLine(c.line) {
			t.Errorf("%s: frameLine(%q) is no stack line", c.file, c.line)
			continue
		}
		p := pp.b.Finish()
		if got := p.Frames[pp.stack[0]].Name; got != c.want {
			t.Errorf("%s: name of %q = %q, want %q", c.file, c.line, got, c.want)
		}
	}
}
