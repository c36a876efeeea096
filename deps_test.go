package proflens_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/proflens/proflens"

// groups is the allowed import graph of STYLE.md "Our shape" and DESIGN.md
// §3: each group of packages may import the groups listed (its own
// included). Data flows one way: analysis ← the seeds ← plotting ← the
// engine ← its commands ← cmd; the protocol layer (kernel/jupyter) knows
// nothing of profiles.
//
// Inside analysis, the model (group "analysis") knows no format and none of
// what formats share. Each format is a package of its own (group "format":
// analysis/pprof, analysis/folded, ...) that imports the model and what
// formats share (analysis/internal), never another format;
// analysis/formats imports every format, for programs that read them all;
// analysis/gen writes generated profiles as pprof; analysis/analysistest
// builds small profiles by hand for tests. Only the commands and the binary
// need formats: the later stages work on the model.
//
// The seed packages import the model and no later stage: compaction
// (ProfVis), phase (JIVE), avid (AVID), blueprint (the Profiling Blueprint,
// which compacts with compaction and reads mutation files in avid's mapping
// syntax), live and agent (DYPER). plotting imports the seeds for the types
// of their results and calls none of their functions (TestPlottingComputes
// Nothing): it lays out and paints what they computed.
//
// kernel is the engine (the language: parse, bind, options, help,
// completion, the session and its caches); kernel/commands holds every
// command and hands the engine its table. Commands import the engine, never
// the reverse: the engine imports no command, no seed but the views it
// caches (compaction), no picture and no format. kernel/kerneltest runs cells for the tests of both.
//
// store (profiles from Pyroscope and Parca) reads the stores' pprof answers
// with analysis and analysis/pprof, beside the loaders; the commands use it.
// store/storetest starts real stores for the tests, and tests/... holds
// test tools (tests/stores/fleet) that use it.
var groups = map[string][]string{
	"internal":          {"internal"},
	"agent":             {"agent"},
	"live":              {"live", "agent", "format", "analysis", "internal"},
	"analysis":          {"analysis", "internal"},
	"analysis/internal": {"analysis/internal", "analysis", "internal"},
	"format":            {"format", "analysis/internal", "analysis", "internal"},
	"formats":           {"formats", "format", "analysis/internal", "analysis", "internal"},
	"gen":               {"gen", "format", "analysis", "internal"},
	"analysistest":      {"analysistest", "analysis", "internal"},
	"compaction":        {"compaction", "analysis", "internal"},
	"phase":             {"phase", "compaction", "analysis", "internal"},
	"avid":              {"avid", "analysis", "internal"},
	"blueprint":         {"blueprint", "avid", "compaction", "analysis", "internal"},
	"plotting":          {"plotting", "phase", "avid", "blueprint", "compaction", "analysis", "internal"},
	"jupyter":           {"jupyter", "internal"},
	"store":             {"store", "format", "analysis", "internal"},
	"kernel":            {"kernel", "jupyter", "compaction", "analysis", "internal"},
	"commands":          {"commands", "kernel", "jupyter", "plotting", "phase", "avid", "blueprint", "compaction", "store", "live", "agent", "formats", "format", "analysis", "internal"},
	"kerneltest":        {"kerneltest", "kernel", "jupyter", "internal"},
	"cmd":               {"cmd", "commands", "kernel", "jupyter", "store", "live", "analysis", "internal"},
	"tests":             {"tests", "store", "format", "analysis", "internal"},
}

// thirdParty says which groups, or which packages, may import a module
// outside the standard library; a module not listed may not be imported at
// all.
var thirdParty = map[string][]string{
	"github.com/google/pprof/profile": {"analysis/pprof"},
	// Demangling C++ and Rust symbols (CleanName): the library pprof uses.
	"github.com/ianlancetaylor/demangle": {"analysis"},
	"gonum.org/v1/plot":                  {"plotting"},
	// Dot products of phase vectors (floats).
	"gonum.org/v1/gonum": {"phase"},
	// The protobuf wire format, under the fast pprof decoder and the store
	// clients.
	"google.golang.org/protobuf/encoding/protowire": {"analysis/pprof", "store"},
	"github.com/go-zeromq/zmq4":                     {"jupyter"},
	// The Go execution trace parser (added with the phase work, commit
	// dee62e0): the standard library has no public trace reader.
	"golang.org/x/exp/trace": {"analysis/gotrace"},
	// The JDK Flight Recorder parser (Apache-2.0), for the jfr format.
	"github.com/grafana/jfr-parser": {"analysis/jfr"},
}

// loggers may import log or log/slog: only the kernel logs.
var loggers = []string{"kernel", "jupyter", "cmd"}

// group returns the group of a package directory relative to the module
// root, or "" when the directory belongs to none.
func group(rel string) string {
	first, rest, _ := strings.Cut(rel, "/")
	switch {
	case rel == "kernel/jupyter" || strings.HasPrefix(rel, "kernel/jupyter/"):
		return "jupyter"
	case rel == "kernel/commands" || strings.HasPrefix(rel, "kernel/commands/"):
		return "commands"
	case rel == "kernel/kerneltest":
		return "kerneltest"
	case first == "analysis" && rest != "":
		switch name, _, _ := strings.Cut(rest, "/"); name {
		case "internal":
			return "analysis/internal"
		case "formats", "gen", "analysistest":
			return name
		}
		return "format"
	case groups[first] != nil:
		return first
	}
	return ""
}

// formatOf returns the format package that a directory of group "format"
// belongs to ("analysis/pprof").
func formatOf(rel string) string {
	parts := strings.SplitN(rel, "/", 3)
	return parts[0] + "/" + parts[1]
}

// TestDependencies checks every package's (non-test) imports against the
// allowed graph.
func TestDependencies(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "notebooks") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil || path == "." {
			return nil // no Go files here (or only tests)
		}
		checked++
		checkImports(t, filepath.ToSlash(path), pkg.Imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Fatalf("checked %d packages; run the test from the module root", checked)
	}
}

// problems lists what is wrong with a package's imports.
func problems(rel string, imports []string) []string {
	g := group(rel)
	if g == "" {
		return []string{"package " + rel + " is in no group of deps_test.go: add it to the import graph"}
	}
	var out []string
	for _, imp := range imports {
		switch {
		case imp == "log" || imp == "log/slog":
			if !slices.Contains(loggers, g) {
				out = append(out, rel+" imports "+imp+": only the kernel logs; return errors instead")
			}
		case strings.HasPrefix(imp, module+"/"):
			to := strings.TrimPrefix(imp, module+"/")
			switch tg := group(to); {
			case !slices.Contains(groups[g], tg):
				out = append(out, rel+" imports "+imp+": "+g+" may import only "+strings.Join(groups[g], ", "))
			case g == "format" && tg == "format" && formatOf(rel) != formatOf(to):
				out = append(out, rel+" imports "+imp+": formats never import each other; move what they share to analysis/internal")
			}
		case strings.Contains(strings.Split(imp, "/")[0], "."):
			if p := thirdPartyProblem(rel, g, imp); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func checkImports(t *testing.T, rel string, imports []string) {
	for _, p := range problems(rel, imports) {
		t.Error(p)
	}
}

func thirdPartyProblem(rel, g, imp string) string {
	for mod, allowed := range thirdParty {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			if !slices.Contains(allowed, g) && !slices.Contains(allowed, rel) {
				return rel + " imports " + imp + ": only " + strings.Join(allowed, ", ") + " may"
			}
			return ""
		}
	}
	return rel + " imports " + imp + ", which is not an allowed dependency (see deps_test.go)"
}

// TestProblems checks that the rules catch each kind of violation.
func TestProblems(t *testing.T) {
	tests := []struct {
		rel     string
		imports []string
		want    int
	}{
		{"analysis", []string{"fmt", module + "/internal/version"}, 0},
		{"analysis", []string{module + "/analysis/internal/text"}, 1},
		{"analysis", []string{"github.com/google/pprof/profile"}, 1},
		{"analysis", []string{module + "/compaction"}, 1},
		{"analysis", []string{module + "/analysis/folded"}, 1},
		{"analysis/pprof", []string{"github.com/google/pprof/profile", module + "/analysis", module + "/analysis/internal/text"}, 0},
		{"analysis/folded", []string{"github.com/google/pprof/profile"}, 1},
		{"analysis/folded", []string{module + "/analysis/pprof"}, 1},
		{"analysis/folded/x", []string{module + "/analysis/folded"}, 0},
		{"analysis/gotrace", []string{"golang.org/x/exp/trace"}, 0},
		{"analysis/internal/text", []string{module + "/analysis/pprof"}, 1},
		{"analysis/formats", []string{module + "/analysis/pprof", module + "/analysis/v8"}, 0},
		{"analysis/gen", []string{module + "/analysis/pprof"}, 0},
		{"compaction", []string{"github.com/google/pprof/profile"}, 1},
		{"compaction", []string{module + "/analysis/formats"}, 1},
		{"plotting", []string{module + "/analysis/pprof"}, 1},
		{"kernel/jupyter", []string{module + "/analysis", "github.com/go-zeromq/zmq4", "log/slog"}, 1},
		{"kernel", []string{"github.com/go-zeromq/zmq4", "gonum.org/v1/plot/vg"}, 2},
		{"kernel/commands", []string{module + "/analysis/formats", module + "/analysis/pprof"}, 0},
		{"kernel", []string{module + "/analysis/formats"}, 1},
		{"kernel", []string{module + "/kernel/commands"}, 1},
		{"kernel", []string{module + "/plotting", module + "/blueprint", module + "/phase"}, 3},
		{"kernel", []string{module + "/compaction", module + "/kernel/jupyter"}, 0},
		{"kernel", []string{module + "/avid"}, 1},
		{"kernel/commands", []string{module + "/kernel", module + "/plotting", module + "/blueprint", module + "/avid"}, 0},
		{"kernel/kerneltest", []string{module + "/kernel/commands"}, 1},
		{"cmd/proflens", []string{module + "/kernel/commands", module + "/kernel"}, 0},
		{"avid", []string{module + "/analysis"}, 0},
		{"avid", []string{module + "/compaction"}, 1},
		{"avid", []string{module + "/blueprint"}, 1},
		{"blueprint", []string{module + "/compaction", module + "/avid", module + "/analysis"}, 0},
		{"blueprint", []string{module + "/plotting"}, 1},
		{"plotting", []string{module + "/blueprint", module + "/avid", module + "/phase"}, 0},
		{"plotting", []string{module + "/kernel"}, 1},
		{"analysis", []string{module + "/avid"}, 1},
		{"plotting", []string{"gonum.org/v1/plot/vg", "gonum.org/v1/gonum/mat", "log"}, 2},
		{"phase", []string{"gonum.org/v1/gonum/floats", "gonum.org/v1/gonum/mat"}, 0},
		{"store", []string{"google.golang.org/protobuf/encoding/protowire", "google.golang.org/protobuf/proto"}, 1},
		{"phase", []string{module + "/plotting", "example.com/x"}, 2},
		{"cmd/proflens", []string{module + "/kernel", module + "/kernel/jupyter", "log/slog"}, 0},
		{"store", []string{module + "/analysis", module + "/analysis/pprof"}, 0},
		{"store", []string{module + "/kernel"}, 1},
		{"store/storetest", []string{module + "/store", "github.com/google/pprof/profile"}, 1},
		{"kernel/commands", []string{module + "/store"}, 0},
		{"kernel", []string{module + "/store"}, 1},
		{"tests/stores/fleet", []string{module + "/store/storetest", module + "/analysis/pprof"}, 0},
		{"tests/stores/fleet", []string{module + "/kernel"}, 1},
		{"tools/x", nil, 1},
		{"agent", []string{"net/http/pprof", "runtime/metrics"}, 0},
		{"agent", []string{module + "/internal/version"}, 1},
		{"agent", []string{"github.com/google/pprof/profile"}, 1},
		{"live", []string{module + "/agent", module + "/analysis/pprof", module + "/analysis"}, 0},
		{"live/demo", []string{module + "/agent"}, 0},
		{"live", []string{module + "/phase"}, 1},
		{"live", []string{module + "/kernel"}, 1},
		{"kernel/commands", []string{module + "/live", module + "/live/demo"}, 0},
		{"kernel", []string{module + "/live"}, 1},
	}
	for _, tt := range tests {
		if got := problems(tt.rel, tt.imports); len(got) != tt.want {
			t.Errorf("problems(%s, %v) = %q, want %d", tt.rel, tt.imports, got, tt.want)
		}
	}
}

// TestGroup pins the directory → group mapping.
func TestGroup(t *testing.T) {
	for rel, want := range map[string]string{
		"analysis": "analysis", "analysis/pprof": "format", "analysis/pprof/x": "format", "analysis/formats": "formats",
		"analysis/gen": "gen", "analysis/internal/text": "analysis/internal", "kernel": "kernel", "kernel/jupyter": "jupyter",
		"kernel/jupyter/wire": "jupyter", "kernel/other": "kernel", "cmd/proflens": "cmd",
		"internal/version": "internal", "tools": "", "store": "store", "store/storetest": "store", "tests/stores/fleet": "tests",
		"agent": "agent", "live/demo": "live", "kernel/commands": "commands", "kernel/kerneltest": "kerneltest",
		"avid": "avid", "blueprint": "blueprint", "analysis/analysistest": "analysistest",
	} {
		if got := group(rel); got != want {
			t.Errorf("group(%q) = %q, want %q", rel, got, want)
		}
	}
}

// seeds are the packages of the seed algorithms, whose functions compute.
var seeds = []string{"compaction", "phase", "avid", "blueprint"}

// TestPlottingComputesNothing: plotting lays out and paints results; it
// calls no function of a seed package (it may read their results' types
// and fields).
func TestPlottingComputesNothing(t *testing.T) {
	funcs := map[string]map[string]bool{}
	for _, s := range seeds {
		funcs[s] = funcsOf(t, s)
	}
	files, err := filepath.Glob("plotting/*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, p := range seedCalls(name, string(src), funcs) {
			t.Error(p)
		}
	}
	if checked < 5 {
		t.Fatalf("checked %d files of plotting; run the test from the module root", checked)
	}
}

// funcsOf returns the package-level functions of the package in dir.
func funcsOf(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}

// seedCalls lists the calls of a seed package's functions (funcs, by seed)
// in the Go source src.
func seedCalls(name, src string, funcs map[string]map[string]bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return []string{err.Error()}
	}
	local := map[string]string{} // import name → seed
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		seed, ok := strings.CutPrefix(path, module+"/")
		if !ok || !slices.Contains(seeds, seed) {
			continue
		}
		local[seed] = seed
		if imp.Name != nil {
			delete(local, seed)
			local[imp.Name.Name] = seed
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && funcs[local[x.Name]][sel.Sel.Name] {
				out = append(out, fmt.Sprintf("%s: plotting calls %s.%s: a seed's computation belongs to the caller, which hands plotting the result",
					fset.Position(call.Pos()), x.Name, sel.Sel.Name))
			}
		}
		return true
	})
	return out
}

// TestSeedCalls checks that seedCalls catches a computation and lets types
// and conversions pass.
func TestSeedCalls(t *testing.T) {
	funcs := map[string]map[string]bool{"blueprint": {"Of": true}, "compaction": {"Compact": true}}
	for _, tt := range []struct {
		src  string
		want int
	}{
		{"package p\nimport \"" + module + "/blueprint\"\nfunc f(v any) { _ = blueprint.Of(v) }", 1},
		{"package p\nimport bp \"" + module + "/blueprint\"\nfunc f(v any) { _ = bp.Of(v) }", 1},
		{"package p\nimport \"" + module + "/blueprint\"\nfunc f(b *blueprint.Blueprint) int8 { return int8(blueprint.Mutation(b.Boxes[0].Mutates)) }", 0},
		{"package p\nimport \"" + module + "/compaction\"\nfunc f(v *compaction.View) { _ = v.Preorder(); _ = compaction.Compact(nil) }", 1},
		{"package p\nimport \"other/blueprint\"\nfunc f() { _ = blueprint.Of() }", 0},
	} {
		if got := seedCalls("p.go", tt.src, funcs); len(got) != tt.want {
			t.Errorf("seedCalls(%q) = %q, want %d", tt.src, got, tt.want)
		}
	}
}
