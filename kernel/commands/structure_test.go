package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandFilesStandAlone: a command is one file, cmd_NAME.go, that
// uses only the shared helpers: no name another cmd_*.go file declares at
// package level, and no methods of its own. Adding a command is
// then one new file and one entry in commands.go.
func TestCommandFilesStandAlone(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	declared := map[string]string{} // package-level name → its file
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
		for _, d := range f.Decls {
			for _, id := range declNames(d) {
				declared[id] = name
			}
		}
	}
	cmdFile := func(name string) bool { return strings.HasPrefix(name, "cmd_") }
	checked := 0
	for name, f := range parsed {
		if !cmdFile(name) {
			continue
		}
		checked++
		for _, id := range f.Unresolved {
			if from := declared[id.Name]; from != "" && from != name && cmdFile(from) {
				t.Errorf("%s: %s uses %s, declared in %s: move it to a shared file", fset.Position(id.Pos()), name, id.Name, from)
			}
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
				t.Errorf("%s declares the method %s: methods of shared types belong in shared files", name, fn.Name.Name)
			}
		}
	}
	if checked < 15 {
		t.Errorf("checked %d command files, want one per command", checked)
	}
	if _, err := os.Stat("commands.go"); err != nil {
		t.Errorf("commands.go, the table of commands: %v", err)
	}
}

// declNames returns the package-level names a declaration introduces.
func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			}
		}
	}
	return out
}
