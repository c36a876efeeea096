package analysis

import (
	"strings"
	"testing"
)

// splitCases are real names: from the corpus (_oracles top lists of the
// parca, Go PGO and pprof profiles; the xfvrp and BaseX hprof traces;
// FlameGraph's Java and Rust stacks; the speedscope Chrome profiles), plus the
// names DESIGN.md gives as examples.
var splitCases = []struct {
	lang Lang
	name string
	want []string
}{
	// Go.
	{LangGo, "github.com/google/pprof/profile.(*Profile).Write", []string{"github.com/google/pprof", "/profile", ".(*Profile)", ".Write"}},
	{LangGo, "net/http.(*Server).Serve", []string{"net", "/http", ".(*Server)", ".Serve"}},
	{LangGo, "golang.org/x/net/http2.(*Framer).ReadFrame", []string{"golang.org/x/net", "/http2", ".(*Framer)", ".ReadFrame"}},
	{LangGo, "runtime.mallocgc", []string{"runtime", ".mallocgc"}},
	{LangGo, "main.main", []string{"main", ".main"}},
	{LangGo, "github.com/dgraph-io/badger/v3.(*DB).doWrites", []string{"github.com/dgraph-io/badger/v3", ".(*DB)", ".doWrites"}},
	{LangGo, "github.com/dgraph-io/badger/v3/y.(*WaterMark).process", []string{"github.com/dgraph-io/badger/v3", "/y", ".(*WaterMark)", ".process"}},
	{LangGo, "github.com/dgraph-io/badger/v3.Open.func5", []string{"github.com/dgraph-io/badger/v3", ".Open", ".func5"}},
	{LangGo, "github.com/conprof/db/tsdb/wal.(*WAL).flushPage", []string{"github.com/conprof/db", "/tsdb", "/wal", ".(*WAL)", ".flushPage"}},
	{LangGo, "example.com/pgo/devirtualize/mult%2epkg.MultClosure.func1", []string{"example.com/pgo", "/devirtualize", "/mult%2epkg", ".MultClosure", ".func1"}},
	{LangGo, "compress/flate.(*huffmanBitWriter).writeBlockDynamic", []string{"compress", "/flate", ".(*huffmanBitWriter)", ".writeBlockDynamic"}},
	{LangGo, "go.uber.org/zap/zapcore.(*ioCore).Write", []string{"go.uber.org/zap", "/zapcore", ".(*ioCore)", ".Write"}},
	{LangGo, "gopkg.in/yaml%2ev3.(*parser).parse", []string{"gopkg.in/yaml%2ev3", ".(*parser)", ".parse"}},
	{LangGo, "gopkg.in/yaml.v3.(*parser).parse", []string{"gopkg.in/yaml.v3", ".(*parser)", ".parse"}},
	{LangGo, "slices.SortFunc[...].func1.2", []string{"slices", ".SortFunc[...]", ".func1", ".2"}},
	{LangGo, "github.com/x/y/z.Map[go.shape.string,github.com/x/y/w.T].Get", []string{"github.com/x/y", "/z", ".Map[go.shape.string,github.com/x/y/w.T]", ".Get"}},
	{LangGo, "runtime/internal/atomic.Xadd", []string{"runtime", "/internal", "/atomic", ".Xadd"}},
	{LangGo, "[unknown]", []string{"[unknown]"}},
	{LangGo, "io/fs.Sub", []string{"io", "/fs", ".Sub"}},
	{LangGo, "std::vector<int>::push_back", []string{"std", "::vector<int>", "::push_back"}},
	// JVM.
	{LangJVM, "org.apache.axis.utils.ClassUtils.forName", []string{"org.apache.axis", ".utils", ".ClassUtils", ".forName"}},
	{LangJVM, "xf.xfvrp.opt.improve.XFVRPPathMove.search(XFVRPPathMove.java:130)", []string{"xf", ".xfvrp", ".opt", ".improve", ".XFVRPPathMove", ".search(XFVRPPathMove.java:130)"}},
	{LangJVM, "java.util.HashMap$TreeNode.find", []string{"java", ".util", ".HashMap", "$TreeNode", ".find"}},
	{LangJVM, "org.basex.gui.GUI$1.run", []string{"org.basex.gui", ".GUI", "$1", ".run"}},
	{LangJVM, "com.example.Main.lambda$main$0", []string{"com.example", ".Main", ".lambda$main$0"}},
	{LangJVM, "com.example.Main$$Lambda$14/0x0000000800c03000.run", []string{"com.example", ".Main", "$$Lambda$14/0x0000000800c03000", ".run"}},
	{LangJVM, "Lorg/mozilla/javascript/ScriptableObject;.createSlot", []string{"Lorg/mozilla/javascript", "/ScriptableObject;", ".createSlot"}},
	{LangJVM, "org/apache/axis/utils/ClassUtils.forName", []string{"org/apache/axis", "/utils", "/ClassUtils", ".forName"}},
	{LangJVM, "lib2.Muscle.contract()", []string{"lib2", ".Muscle", ".contract()"}},
	{LangJVM, "java.lang.Object.<init>", []string{"java", ".lang", ".Object", ".<init>"}},
	{LangJVM, "Main.main", []string{"Main", ".main"}},
	// JVM names with slashes, as JFR-derived pprof files write them
	// (grafana/pyroscope pkg/og/convert/jfr/testdata/cortex-dev-01__kafka-0__cpu__0.jfr.gz.*.pb.gz);
	// the profile counts as C++ by its HotSpot frames: each frame is split by its own shape.
	{LangCpp, "java/util/regex/Pattern$Slice.match", []string{"java", "/util", "/regex", "/Pattern", "$Slice", ".match"}},
	{LangCpp, "org/apache/log4j/Category.getEffectiveLevel", []string{"org/apache/log4j", "/Category", ".getEffectiveLevel"}},
	{LangCpp, "scala/runtime/BoxesRunTime.equals2", []string{"scala", "/runtime", "/BoxesRunTime", ".equals2"}},
	{LangGo, "java/lang/Thread.run", []string{"java", "/lang", "/Thread", ".run"}},
	// HotSpot's C++ frames in a Java profile (FlameGraph test/perf-java-stacks-01.txt).
	{LangJVM, "JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)", []string{"JavaCalls", "::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)"}},
	// Module-led names: async-profiler's native frames in the same JFR-derived files, DTrace
	// (FlameGraph example-dtrace-stacks.txt, inferno collapse-dtrace/rust-names.txt), .NET
	// (grafana/pyroscope pkg/pprof/testdata/dotnet.labels.pprof).
	{LangCpp, "libjvm.so.G1BarrierSet::invalidate", []string{"libjvm.so", ".G1BarrierSet", "::invalidate"}},
	{LangCpp, "libc-2.31.so.epoll_wait", []string{"libc-2.31.so", ".epoll_wait"}},
	{LangAuto, "genunix`kmem_cpu_reload", []string{"genunix", "`kmem_cpu_reload"}},
	{LangAuto, "rg`std::panicking::try::do_call", []string{"rg", "`std", "::panicking", "::try", "::do_call"}},
	{LangAuto, "libsystem_pthread.dylib`_pthread_start", []string{"libsystem_pthread.dylib", "`_pthread_start"}},
	{LangAuto, "WebApplication1.Controllers!CpuController.fib", []string{"WebApplication1.Controllers", "!CpuController", ".fib"}},
	{LangAuto, "Microsoft.AspNetCore.Authentication!AuthenticationMiddleware.<Invoke>d__6.MoveNext", []string{"Microsoft.AspNetCore.Authentication", "!AuthenticationMiddleware", ".<Invoke>d__6", ".MoveNext"}},
	// C++ and Rust.
	// perf's whole names (inferno tests/data/collapse-perf/cpp-stacks-std-function.txt).
	{LangCpp, "std::function<int (int, int)>::operator()", []string{"std", "::function<int (int, int)>", "::operator()"}},
	{LangCpp, "std::_Function_handler<int (int, int), main::{lambda(int, int)#1}>::_M_invoke", []string{"std", "::_Function_handler<int (int, int), main::{lambda(int, int)#1}>", "::_M_invoke"}},
	{LangAuto, "operator!=(a, b)", []string{"operator!=(a, b)"}},
	{LangCpp, "std::vector<std::pair<int, int>>::push_back(int const&)", []string{"std", "::vector<std::pair<int, int>>", "::push_back(int const&)"}},
	{LangCpp, "simplelog::termlog::TermLogger::init::ha7463b1622ff979e", []string{"simplelog", "::termlog", "::TermLogger", "::init", "::ha7463b1622ff979e"}},
	{LangCpp, "core::ptr::_$LT$impl$u20$$BP$mut$u20$T$GT$::offset::h83331dc01d57b6ff", []string{"core", "::ptr", "::_$LT$impl$u20$$BP$mut$u20$T$GT$", "::offset", "::h83331dc01d57b6ff"}},
	{LangCpp, "<alloc::vec::Vec<T> as core::ops::index::Index<I>>::index", []string{"<alloc::vec::Vec<T> as core::ops::index::Index<I>>", "::index"}},
	{LangCpp, "std::operator<<(std::ostream&, char const*)", []string{"std", "::operator<<(std::ostream&, char const*)"}},
	{LangCpp, "Foo::operator()(int) const::{lambda(int)#1}::operator()", []string{"Foo", "::operator()(int) const", "::{lambda(int)#1}", "::operator()"}},
	{LangCpp, "(anonymous namespace)::Worker::run()", []string{"(anonymous namespace)", "::Worker", "::run()"}},
	{LangCpp, "v8::internal::Heap::CollectGarbage", []string{"v8", "::internal", "::Heap", "::CollectGarbage"}},
	{LangCpp, "_Z4betav", []string{"_Z4betav"}},
	{LangCpp, "a->b::c", []string{"a->b", "::c"}},
	// Python.
	{LangPython, "decode (json/decoder.py:337)", []string{"json", "/decoder.py", " decode", ":337"}},
	{LangPython, "run (/usr/lib/python3.11/site-packages/flask/app.py:12)", []string{"/usr/lib/python3.11/site-packages/flask", "/app.py", " run", ":12"}},
	{LangPython, "<module> (/usr/lib/python3.11/json/__init__.py:1)", []string{"/usr/lib/python3.11/json", "/__init__.py", " <module>", ":1"}},
	{LangPython, "Foo.bar (/home/u/proj/app.py:7)", []string{"/home/u/proj", "/app.py", " Foo", ".bar", ":7"}},
	{LangPython, "handle (/srv/shop/src/shop/views.py:40)", []string{"/srv/shop", "/src", "/shop", "/views.py", " handle", ":40"}},
	{LangPython, "main (script.py:3)", []string{"script.py", " main", ":3"}},
	{LangPython, "pkg.mod.func", []string{"pkg", ".mod", ".func"}},
	// Pyroscope's agents, "file:line - fn" (grafana/pyroscope pkg/pprof/testdata/profile_python,
	// profile_ruby, profile_rust).
	{LangAuto, "flask/app.py:-1 - run", []string{"flask", "/app.py", ":-1 - run"}},
	{LangAuto, "gems/puma-5.6.7/lib/puma/server.rb:-1 - process_client", []string{"gems", "/puma-5.6.7", "/lib", "/puma", "/server.rb", ":-1 - process_client"}},
	{LangCpp, "alloc.rs:241 - <alloc::alloc::Global as core::alloc::Allocator>::allocate", []string{"alloc.rs", ":241 - <alloc::alloc::Global as core::alloc::Allocator>::allocate"}},
	// JavaScript.
	{LangJS, "a file:///Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js:1:11", []string{"file:///Users/jlfwong/code/speedscope/sample/programs/javascript", "/simple.js", " a", ":1:11"}},
	{LangJS, "Object.keys.forEach /Users/x/sucrase/dist/index.js:22:7", []string{"/Users/x/sucrase", "/dist", "/index.js", " Object", ".keys", ".forEach", ":22:7"}},
	{LangJS, "processRegion /Users/alanpierce/code/sucrase/build/src/augmentTokens.js:26:18", []string{"/Users/alanpierce/code/sucrase", "/build", "/src", "/augmentTokens.js", " processRegion", ":26:18"}},
	{LangJS, "render https://cdn.example.com/js/app.js:3:9", []string{"https://cdn.example.com", "/js", "/app.js", " render", ":3:9"}},
	{LangJS, "f /app/node_modules/@babel/core/lib/index.js:1:2", []string{"/app/node_modules/@babel/core", "/lib", "/index.js", " f", ":1:2"}},
	{LangJS, "compileForInternalLoader node:internal/bootstrap/realm:384:27", []string{"node:internal", "/bootstrap", "/realm", " compileForInternalLoader", ":384:27"}},
	{LangJS, "a :1:11", []string{"a", ":1:11"}},
	// Pyroscope's Node agent, "script:fn:line" (grafana/pyroscope pkg/pprof/testdata/profile_nodejs).
	{LangAuto, "node:internal/streams/writable:Writable.end:827", []string{"node:internal", "/streams", "/writable", ":Writable.end:827"}},
	{LangAuto, "./node_modules/@pyroscope/nodejs/dist/cjs/index.js:uploadProfile:148", []string{"./node_modules/@pyroscope/nodejs", "/dist", "/cjs", "/index.js", ":uploadProfile:148"}},
	{LangJS, "(garbage collector)", []string{"(garbage collector)"}},
}

func TestSplit(t *testing.T) {
	for _, c := range splitCases {
		t.Run(c.lang.String()+"/"+c.name, func(t *testing.T) {
			got := Split(c.name, c.lang)
			if strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
				t.Errorf("Split(%q, %v) = %q, want %q", c.name, c.lang, got, c.want)
			}
		})
	}
}

// TestSplitAuto checks that a guessed language splits each example name as
// its own splitter does.
func TestSplitAuto(t *testing.T) {
	for _, c := range splitCases {
		if c.lang == LangPython && !isPythonLoc(c.name) {
			continue // a bare dotted Python name is guessed as a dotted name
		}
		got := Split(c.name, LangAuto)
		if strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
			t.Errorf("Split(%q, LangAuto) = %q (guess %v), want %q", c.name, got, Guess(c.name), c.want)
		}
	}
}

// TestSplitProfVis checks the worked example of DESIGN.md §5: level 1 of
// every frame of the ProfVis toy is its library.
func TestSplitProfVis(t *testing.T) {
	for _, name := range []string{"lib1.Whale.breath", "lib1.Mammal.inhale", "lib2.Lung.inhale", "lib2.Muscle.contract", "lib3.Signal.travel"} {
		for _, l := range []Lang{LangAuto, LangGo, LangJVM} {
			got := Split(name, l)
			if len(got) != 3 || got[0] != name[:4] || strings.Join(got, "") != name {
				t.Errorf("Split(%q, %v) = %q, want %s · .Class · .method", name, l, got, name[:4])
			}
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, c := range splitCases {
		f.Add(c.name, uint8(c.lang))
	}
	f.Fuzz(func(t *testing.T, name string, lang uint8) {
		l := Lang(lang % 6)
		got := Split(name, l)
		if len(got) == 0 {
			t.Fatalf("Split(%q, %v) returned no elements", name, l)
		}
		for i, e := range got {
			if e == "" && name != "" {
				t.Fatalf("Split(%q, %v) = %q: element %d is empty", name, l, got, i)
			}
		}
		disp := strings.Join(got, "")
		if reorders(name, l) {
			if !sameOrFewerBytes(disp, name) {
				t.Fatalf("Split(%q, %v) = %q adds text", name, l, got)
			}
			return
		}
		if disp != name {
			t.Fatalf("Split(%q, %v) = %q, concatenated %q", name, l, got, disp)
		}
	})
}

// reorders reports whether the display of name puts the file first.
func reorders(name string, l Lang) bool {
	if l == LangAuto {
		l = Guess(name)
	}
	return l == LangPython && isPythonLoc(name) || l == LangJS && isJSLoc(name)
}

// sameOrFewerBytes reports whether every byte of a occurs in b at least as
// often.
func sameOrFewerBytes(a, b string) bool {
	var n [256]int
	for i := 0; i < len(b); i++ {
		n[b[i]]++
	}
	for i := 0; i < len(a); i++ {
		if n[a[i]]--; n[a[i]] < 0 {
			return false
		}
	}
	return true
}

// BenchmarkSplit splits the example names once per iteration.
func BenchmarkSplit(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range splitCases {
			Split(c.name, c.lang)
		}
	}
}
