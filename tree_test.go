package proflens_test

import (
	"bytes"
	"crypto/sha256"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The checks of this file keep the tree clean: no build outputs, a tidy
// go.mod, comments that cite files that exist and no tracker, and one home
// for each fixture. They read what git tracks.

// tracked returns the regular files git tracks (links left out), or skips
// the test outside a git checkout.
func tracked(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "-s", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout?)", err)
	}
	var files []string
	seen := map[string]bool{} // a file in a merge's conflict is listed once per side
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if !ok || strings.HasPrefix(meta, "120000 ") || seen[name] { // a symbolic link
			continue
		}
		seen[name] = true
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() {
			files = append(files, name)
		}
	}
	if len(files) < 100 {
		t.Fatalf("git tracks %d files here; run the test from the module root", len(files))
	}
	return files
}

// executable are the leading bytes of executables, object files and
// archives: build outputs, never sources.
var executable = [][]byte{
	[]byte("\x7fELF"), {0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe},
	{0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, []byte("MZ"), []byte("!<arch>\n"), []byte("\x00asm"),
}

// dataDirs may hold binary data: test fixtures, the notebooks' profiles,
// the embedded demo profiles and the kernel's logos.
var dataDirs = regexp.MustCompile(`(^|/)testdata/|^notebooks/data/|^analysis/formats/demo/|^cmd/proflens/logo-[^/]*\.png$`)

// binaryOutput says why name (its first bytes head) is a build output or a
// binary out of place, or "".
func binaryOutput(name string, head []byte) string {
	for _, ext := range []string{".test", ".o", ".a", ".so", ".exe", ".dll", ".dylib"} {
		if strings.HasSuffix(name, ext) {
			return "a build output (" + ext + ")"
		}
	}
	for _, magic := range executable {
		if bytes.HasPrefix(head, magic) && (len(magic) > 2 || len(head) > 64) {
			return "an executable or object file"
		}
	}
	if bytes.IndexByte(head, 0) >= 0 && !dataDirs.MatchString(name) {
		return "binary, outside testdata and the data folders"
	}
	return ""
}

// TestNoBuildOutputs: git tracks no executable, object file, test binary
// or archive, and binary data only where data belongs.
func TestNoBuildOutputs(t *testing.T) {
	for _, name := range tracked(t) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 8000)
		n, _ := f.Read(head)
		f.Close()
		if why := binaryOutput(name, head[:n]); why != "" {
			t.Errorf("%s is %s: remove it from git (git rm --cached) and ignore it", name, why)
		}
	}
}

// TestBinaryOutput checks what binaryOutput calls a build output.
func TestBinaryOutput(t *testing.T) {
	elf := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...)
	for _, tt := range []struct {
		name string
		head []byte
		bad  bool
	}{
		{"callgrind.test", []byte("anything"), true},
		{"tools/x", elf, true},
		{"analysis/testdata/x.bin", elf, true},
		{"plotting/testdata/conprof.pb.gz", []byte("\x1f\x8b\x08\x00\x00\x00"), false},
		{"notebooks/data/fib.pb.gz", []byte("\x1f\x8b\x08\x00\x00\x00"), false},
		{"docs/x.pb.gz", []byte("\x1f\x8b\x08\x00\x00\x00"), true},
		{"README.md", []byte("# proflens\n"), false},
		{"MZ.md", []byte("MZ is a name"), false},
	} {
		if got := binaryOutput(tt.name, tt.head) != ""; got != tt.bad {
			t.Errorf("binaryOutput(%s) = %v, want %v", tt.name, got, tt.bad)
		}
	}
}

// TestModTidy: go.mod and go.sum are what go mod tidy makes of the code.
func TestModTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	out, err := exec.Command("go", "mod", "tidy", "-diff").CombinedOutput()
	if err != nil {
		t.Errorf("go mod tidy -diff: %v: run go mod tidy:\n%s", err, out)
	}
}

var (
	// goFileName is a Go file named in a comment; a name with a part in
	// capitals (cmd_NAME.go) is a pattern, not a file.
	goFileName = regexp.MustCompile(`[\w./-]*\w\.go\b`)
	pattern    = regexp.MustCompile(`[A-Z]{2,}`)
	// tracker is a citation of an issue of a tracker the tree does not
	// hold: comments say what is, not how it came to be.
	tracker = regexp.MustCompile(`(?i)\bissues? #?\d+`)
)

// commentProblems lists the Go files cited in the comments of the Go file
// name (source src) that do not exist, beside it or from the root, and its
// citations of issues. An example's output block cites nothing.
func commentProblems(name, src string, exists func(string) bool) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
	if err != nil {
		return []string{name + ": " + err.Error()}
	}
	var out []string
	for _, cg := range f.Comments {
		text := cg.Text()
		if strings.HasPrefix(text, "Output:") || strings.HasPrefix(text, "Unordered output:") {
			continue // an example's output is what the program prints, not a citation
		}
		for _, cited := range goFileName.FindAllString(text, -1) {
			if !pattern.MatchString(cited) && !exists(filepath.Join(filepath.Dir(name), cited)) && !exists(cited) {
				out = append(out, name+": a comment cites "+cited+", which does not exist")
			}
		}
		for _, m := range tracker.FindAllString(text, -1) {
			out = append(out, name+": a comment cites "+m+": say what is, without the tracker")
		}
	}
	return out
}

// TestComments: every Go file a comment cites exists, and no comment cites
// an issue.
func TestComments(t *testing.T) {
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, name := range tracked(t) {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range commentProblems(name, string(src), exists) {
			t.Error(p)
		}
	}
}

// TestCommentProblems checks what commentProblems finds.
func TestCommentProblems(t *testing.T) {
	exists := func(p string) bool { return p == "a/b.go" || p == "c.go" }
	for _, tt := range []struct {
		src  string
		want int
	}{
		{"// See b.go and c.go.\npackage a", 0},
		{"// See gone.go.\npackage a", 1},
		{"// One file each, cmd_NAME.go.\npackage a", 0},
		{"package a\n\n// f is what issue 12 asked for.\nfunc f() {}", 1},
		{"package a\n\n// f takes the issues of the day.\nfunc f() {}", 0},
		{"package a\n\nfunc Example() {\n\t// Output:\n\t// gone.go:3\n}", 0},
	} {
		if got := commentProblems("a/a.go", tt.src, exists); len(got) != tt.want {
			t.Errorf("commentProblems(%q) = %q, want %d", tt.src, got, tt.want)
		}
	}
}

// TestOneHomePerFixture: no two tracked files hold the same bytes. A file
// that serves two places has one home, and the other place reads it there
// (or links to it).
func TestOneHomePerFixture(t *testing.T) {
	byHash := map[[32]byte]string{}
	for _, name := range tracked(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			continue
		}
		h := sha256.Sum256(data)
		if first, ok := byHash[h]; ok {
			t.Errorf("%s and %s hold the same %d bytes: keep one and make the other's users read it", first, name, len(data))
			continue
		}
		byHash[h] = name
	}
}
