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
	// dotnet-trace (ritza-co/sentry-dist-tracing-dotnet-api-todos-starter trace.speedscope.json).
	{LangAuto, "System.Private.CoreLib!System.Threading.Tasks.Task.Wait(int32,value class System.Threading.CancellationToken)", []string{"System.Private.CoreLib", "!System.Threading.Tasks", ".Task", ".Wait(int32,value class System.Threading.CancellationToken)"}},
	{LangAuto, "System.Private.CoreLib!System.RuntimeType+RuntimeTypeCache+MemberInfoCache`1[System.__Canon].Populate(class System.String)", []string{"System.Private.CoreLib", "!System", ".RuntimeType", "+RuntimeTypeCache", "+MemberInfoCache`1[System.__Canon]", ".Populate(class System.String)"}},
	{LangAuto, "System.Net.Sockets!System.Net.Sockets.SocketAsyncEngine.System.Threading.IThreadPoolWorkItem.Execute()", []string{"System.Net.Sockets", "!System.Net.Sockets", ".SocketAsyncEngine", ".System.Threading.IThreadPoolWorkItem.Execute()"}},
	{LangAuto, "dotnet-todo-api!Program.<Main>$(class System.String[])", []string{"dotnet-todo-api", "!Program", ".<Main>$(class System.String[])"}},
	{LangAuto, "System.Private.CoreLib!System.Object..ctor()", []string{"System.Private.CoreLib", "!System", ".Object", "..ctor()"}},
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
	// Return types and symbol versions (c++filt output of libstdc++ and glibc symbols).
	{LangCpp, "bool std::operator==<char>(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, char const*)", []string{"std", "::operator==<char>(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, char const*) -> bool"}},
	{LangCpp, "int __gnu_cxx::__exchange_and_add(int volatile*, int)", []string{"__gnu_cxx", "::__exchange_and_add(int volatile*, int) -> int"}},
	{LangCpp, "std::vector<int, std::allocator<int> >::operator=(std::vector<int, std::allocator<int> > const&)", []string{"std", "::vector<int, std::allocator<int> >", "::operator=(std::vector<int, std::allocator<int> > const&)"}},
	{LangCpp, "non-virtual thunk to v8::internal::Foo::Bar()", []string{"v8", "::internal", "::Foo", "::Bar() [non-virtual thunk]"}},
	{LangCpp, "vtable for std::basic_ios<char>", []string{"std", "::basic_ios<char> [vtable]"}},
	{LangCpp, "Foo::operator bool() const", []string{"Foo", "::operator bool() const"}},
	{LangAuto, "__libc_start_main@@GLIBC_2.2.5", []string{"__libc_start_main@@GLIBC_2.2.5"}},
	{LangAuto, "memcpy.isra.0", []string{"memcpy.isra.0"}},
	{LangAuto, "runtime.coldStart", []string{"runtime", ".coldStart"}},
	// Rust inherent impls (FlameGraph test/perf-rust-Yamakaky-dcpu.txt).
	{LangCpp, "<term::terminfo::TerminfoTerminal<T>>::new", []string{"term", "::terminfo", "::TerminfoTerminal<T>", "::new"}},
	{LangCpp, "alloc::vec::<impl core::ops::index::Index<I> for alloc::vec::Vec<T>>::index", []string{"alloc", "::vec", "::<impl core::ops::index::Index<I> for alloc::vec::Vec<T>>", "::index"}},
	{LangCpp, "tokio::runtime::task::harness::poll_future::{{closure}}", []string{"tokio", "::runtime", "::task", "::harness", "::poll_future", "::{{closure}}"}},
	{LangCpp, "a->b::c", []string{"a->b", "::c"}},
	// Python.
	{LangPython, "decode (json/decoder.py:337)", []string{"json", ".decoder", ".decode", ":337"}},
	{LangPython, "run (/usr/lib/python3.11/site-packages/flask/app.py:12)", []string{"flask", ".app", ".run", ":12"}},
	{LangPython, "<module> (/usr/lib/python3.11/json/__init__.py:1)", []string{"json", ".<module>", ":1"}},
	{LangPython, "Foo.bar (/home/u/proj/app.py:7)", []string{"app", ".Foo", ".bar", ":7"}},
	{LangPython, "handle (/srv/shop/src/shop/views.py:40)", []string{"views", ".handle", ":40"}},
	// py-spy (JakeSwin/voronoi_pp_py profile.speedscope.json): uv's Python, a venv, Debian, the user site.
	{LangPython, "_find_and_load (/home/swin/.local/share/uv/python/cpython-3.11.13-linux-x86_64-gnu/lib/python3.11/importlib/__init__.py:126)", []string{"importlib", "._find_and_load", ":126"}},
	{LangPython, "__getattr__ (/home/swin/code/python/voronoi_test/.venv/lib/python3.11/site-packages/jax/_src/core.py:812)", []string{"jax", "._src", ".core", ".__getattr__", ":812"}},
	{LangPython, "get (/usr/lib/python3/dist-packages/requests/api.py:73)", []string{"requests", ".api", ".get", ":73"}},
	{LangPython, "<module> (/home/u/.local/lib/python3.13/site-packages/sympy/core/__init__.py:1)", []string{"sympy", ".core", ".<module>", ":1"}},
	{LangPython, "run (C:\\Python311\\Lib\\site-packages\\flask\\app.py:12)", []string{"flask", ".app", ".run", ":12"}},
	{LangPython, "loads (C:\\Python311\\Lib\\json\\__init__.py:346)", []string{"json", ".loads", ":346"}},
	{LangPython, "main (script.py:3)", []string{"script", ".main", ":3"}},
	{LangPython, "pkg.mod.func", []string{"pkg", ".mod", ".func"}},
	// Pyroscope's agents, "file:line - fn" (grafana/pyroscope pkg/pprof/testdata/profile_python,
	// profile_ruby, profile_rust).
	{LangAuto, "flask/app.py:-1 - run", []string{"flask", ".app", ".run", ":-1"}},
	{LangAuto, "gems/puma-5.6.7/lib/puma/server.rb:-1 - process_client", []string{"gems", "/puma-5.6.7", "/lib", "/puma", "/server.rb", ":-1 - process_client"}},
	{LangCpp, "alloc.rs:241 - <alloc::alloc::Global as core::alloc::Allocator>::allocate", []string{"alloc.rs", ":241 - <alloc::alloc::Global as core::alloc::Allocator>::allocate"}},
	// JavaScript.
	{LangJS, "a file:///Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js:1:11", []string{"simple.js", " a", ":1:11"}},
	{LangJS, "Object.keys.forEach /Users/x/sucrase/dist/index.js:22:7", []string{"index.js", " Object", ".keys", ".forEach", ":22:7"}},
	{LangJS, "processRegion /Users/alanpierce/code/sucrase/build/src/augmentTokens.js:26:18", []string{"augmentTokens.js", " processRegion", ":26:18"}},
	// V8 (ponder-sh/ponder profile.cpuprofile): pnpm's nested node_modules, Node's own modules, WebAssembly.
	{LangJS, "add file:///Users/kylescott/src/ponder/node_modules/.pnpm/p-queue@7.4.1/node_modules/p-queue/dist/index.js:92:13", []string{"p-queue", "/dist", "/index.js", " add", ":92:13"}},
	{LangJS, "Module._load node:internal/modules/cjs/loader:949:23", []string{"node:internal", "/modules", "/cjs", "/loader", " Module", "._load", ":949:23"}},
	{LangJS, "exec node:child_process:231:13", []string{"node:child_process", " exec", ":231:13"}},
	{LangJS, "f wasm://wasm/0003626a:1:2", []string{"wasm://wasm", "/0003626a", " f", ":1:2"}},
	{LangJS, "(anonymous) file:///Users/kylescott/src/ponder/packages/core/dist/index.js:1:-171", []string{"index.js", " (anonymous)", ":1:-171"}},
	{LangJS, "render https://cdn.example.com/js/app.js:3:9", []string{"https://cdn.example.com", "/js", "/app.js", " render", ":3:9"}},
	{LangJS, "f /app/node_modules/@babel/core/lib/index.js:1:2", []string{"@babel/core", "/lib", "/index.js", " f", ":1:2"}},
	{LangJS, "compileForInternalLoader node:internal/bootstrap/realm:384:27", []string{"node:internal", "/bootstrap", "/realm", " compileForInternalLoader", ":384:27"}},
	{LangJS, "a :1:11", []string{"a", ":1:11"}},
	// Pyroscope's Node agent, "script:fn:line" (grafana/pyroscope pkg/pprof/testdata/profile_nodejs).
	{LangAuto, "node:internal/streams/writable:Writable.end:827", []string{"node:internal", "/streams", "/writable", ":Writable.end:827"}},
	{LangAuto, "./node_modules/@pyroscope/nodejs/dist/cjs/index.js:uploadProfile:148", []string{"@pyroscope/nodejs", "/dist", "/cjs", "/index.js", ":uploadProfile:148"}},
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
		if g := frameLang(name, l); disp != name && (g == LangGo || g == LangJVM) && modulePrefix(name) == 0 {
			t.Fatalf("Split(%q, %v) = %q, concatenated %q", name, l, got, disp)
		}
		if !sameOrFewerBytes(dropSeparators(disp), name) {
			t.Fatalf("Split(%q, %v) = %q adds text", name, l, got)
		}
	})
}

// dropSeparators drops the separators a display may add: between a
// module and its function, a C++ trailing return type or special name.
func dropSeparators(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("./:- >[]", s[i]) < 0 {
			b = append(b, s[i])
		}
	}
	return string(b)
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
