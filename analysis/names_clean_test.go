package analysis

import "testing"

// cleanCases are names from real files, each named, with what CleanName
// makes of them.
var cleanCases = []struct{ file, name, want string }{
	// Rust legacy names perf demangled but left escaped, with hashes
	// (FlameGraph test/perf-rust-Yamakaky-dcpu.txt).
	{"perf-rust-Yamakaky-dcpu.txt", "_$LT$$RF$$u27$a$u20$mut$u20$I$u20$as$u20$core..iter..iterator..Iterator$GT$::next::h01cfe524df2e1837",
		"<&'a mut I as core::iter::iterator::Iterator>::next"},
	{"perf-rust-Yamakaky-dcpu.txt", "core::ptr::_$LT$impl$u20$$BP$mut$u20$T$GT$::offset::h83331dc01d57b6ff", "core::ptr::<impl *mut T>::offset"},
	{"perf-rust-Yamakaky-dcpu.txt", "simplelog::termlog::TermLogger::init::ha7463b1622ff979e", "simplelog::termlog::TermLogger::init"},
	// DTrace: a module, an LLVM suffix after the hash (inferno collapse-dtrace/rust-names.txt,
	// stack-ustack.txt).
	{"rust-names.txt", "rg`std::panicking::try::do_call::h08ca64c12e8a9bb0 (.llvm.15516475458848885060)", "rg`std::panicking::try::do_call"},
	{"stack-ustack.txt", "cru-ds-fdsync-v1`crucible_downstairs::recv_task::_$u7b$$u7b$closure$u7d$$u7d$::h2313d0ca35c97b46 (.llvm.9599067906520872268)",
		"cru-ds-fdsync-v1`crucible_downstairs::recv_task::{{closure}}"},
	{"rust-names.txt", "libsystem_platform.dylib`_platform_memset$VARIANT$Haswell", "libsystem_platform.dylib`_platform_memset$VARIANT$Haswell"},
	// Rust v0 symbols (speedscope sample/profiles/linux-perf/rust-mangled.linux-perf.txt).
	{"rust-mangled.linux-perf.txt", "_RNvXs1_NtCsTACXlTRjQ_4core7convertNtNtCslw2YnFSxGUT_10ppv_lite867generic13u32x4_genericINtB5_4IntoNtBy_14vec128_storageE4intoCs2zQ9tAH61OF_11rand_chacha",
		"<ppv_lite86::generic::u32x4_generic as core::convert::Into<ppv_lite86::generic::vec128_storage>>::into"},
	{"rust-mangled.linux-perf.txt", "_RINvNtCse0yjq9ZQveU_3std2rt10lang_startuECs8K9WJNlS7Dz_5trace", "std::rt::lang_start::<()>"},
	// Itanium C++ symbols a profile left mangled (FlameGraph test/perf-java-faults-01.txt's
	// JVM, its symbols as libjvm.so exports them).
	{"perf-java-faults-01.txt", "_ZN9JavaCalls11call_helperEP9JavaValueP12methodHandleP17JavaCallArgumentsP6Thread",
		"JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)"},
	// perf-map-agent's Java descriptors (FlameGraph test/perf-java-faults-01.txt).
	{"perf-java-faults-01.txt", "Ljava/util/concurrent/ThreadPoolExecutor$Worker;::run", "java/util/concurrent/ThreadPoolExecutor$Worker.run"},
	{"perf-vertx-stacks-01.txt", "Lorg/mozilla/javascript/ScriptableObject;.createSlot", "org/mozilla/javascript/ScriptableObject.createSlot"},
	{"inferno java-inline (a class of the default package)", "LCounter;::countTo", "Counter.countTo"},
	{"a C name that only looks like a descriptor", "LATENCY;", "LATENCY;"},
	// Names that stay.
	{"perf-java-stacks-01.txt", "JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)", "JavaCalls::call_helper(JavaValue*, methodHandle*, JavaCallArguments*, Thread*)"},
	{"go tool pprof corpus", "github.com/dgraph-io/badger/v3.(*DB).doWrites", "github.com/dgraph-io/badger/v3.(*DB).doWrites"},
	{"java.hprof.txt (xfvrp)", "xf.xfvrp.opt.improve.XFVRPPathMove.search(XFVRPPathMove.java:130)", "xf.xfvrp.opt.improve.XFVRPPathMove.search(XFVRPPathMove.java:130)"},
	{"perf-java-stacks-01.txt", "java/util/HashMap$TreeNode.find", "java/util/HashMap$TreeNode.find"},
	{"libstdc++ (perf)", "_Rb_tree_increment", "_Rb_tree_increment"},
}

func TestCleanName(t *testing.T) {
	for _, c := range cleanCases {
		if got := CleanName(c.name); got != c.want {
			t.Errorf("%s: CleanName(%q) = %q, want %q", c.file, c.name, got, c.want)
		}
		if again := CleanName(c.want); again != c.want {
			t.Errorf("%s: CleanName(%q) = %q: not idempotent", c.file, c.want, again)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, c := range cleanCases {
		f.Add(c.name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := CleanName(name)
		if name != "" && got == "" {
			t.Fatalf("CleanName(%q) is empty", name)
		}
	})
}
