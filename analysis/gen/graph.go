package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// graph is a layered call graph: function i calls functions with higher
// indices, mostly nearby ones, so that neighbouring functions share packages
// and a walk of MeanDepth calls crosses a realistic number of packages.
type graph struct {
	names   []string
	files   []string
	callees [][]int32
	entries []int32 // goroutine entry points
}

var (
	stdPkgs = []string{"runtime", "sync", "io", "bufio", "bytes", "strings", "strconv", "sort", "fmt",
		"context", "os", "syscall", "time", "reflect", "encoding/json", "encoding/binary", "compress/gzip",
		"crypto/tls", "crypto/sha256", "net", "net/http", "database/sql", "regexp", "math/big", "internal/poll"}
	orgs  = []string{"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell"}
	words = []string{"cache", "store", "index", "query", "plan", "exec", "codec", "wire", "proto", "rpc",
		"server", "client", "pool", "queue", "sched", "shard", "ring", "log", "metrics", "trace", "auth",
		"token", "parse", "lexer", "tree", "graph", "merge", "split", "batch", "stream", "block", "page",
		"table", "row", "column", "vector", "hash", "bloom", "filter", "sort", "heap", "alloc", "buffer",
		"frame", "packet", "conn", "session", "route", "handler", "config"}
	types = []string{"Server", "Client", "Conn", "Reader", "Writer", "Encoder", "Decoder", "Pool", "Cache",
		"Table", "Index", "Node", "Tree", "Iter", "Batch", "Planner", "Executor", "Shard", "Buffer", "Stream"}
	verbs = []string{"Get", "Put", "Read", "Write", "Flush", "Close", "Open", "Serve", "Handle", "Run",
		"Encode", "Decode", "Scan", "Next", "Merge", "Split", "Apply", "Lookup", "Insert", "Delete",
		"Compact", "Sync", "Load", "Store", "Visit", "Walk", "Build", "Check", "Sum", "Grow"}
)

// funcsPerPkg is the mean number of functions of a package.
const funcsPerPkg = 60

func newGraph(r *rand.Rand, n int, meanDepth int) *graph {
	g := &graph{names: make([]string, n), files: make([]string, n), callees: make([][]int32, n)}
	seen := make(map[string]bool, n)
	pkg, file := "", ""
	for i := range n {
		if i%funcsPerPkg == 0 {
			pkg = pkgPath(r, i/funcsPerPkg)
			file = pkg + "/" + words[r.IntN(len(words))] + ".go"
		}
		name := funcName(r, pkg, i)
		for seen[name] {
			name += "_"
		}
		seen[name] = true
		g.names[i], g.files[i] = name, file
	}
	span := max(8, n/max(1, meanDepth))
	for i := range n {
		k := 2 + r.IntN(5)
		for range k {
			c := i + 1 + r.IntN(span)
			if c < n {
				g.callees[i] = append(g.callees[i], int32(c))
			}
		}
	}
	for e := 0; e < n/2; e += max(1, n/600) {
		g.entries = append(g.entries, int32(e))
	}
	return g
}

// pkgPath names package k: the standard library first, then module paths.
func pkgPath(r *rand.Rand, k int) string {
	if k < len(stdPkgs) {
		return stdPkgs[k]
	}
	org := orgs[r.IntN(len(orgs))]
	repo := words[r.IntN(len(words))]
	sub := words[r.IntN(len(words))]
	if r.IntN(3) == 0 {
		return fmt.Sprintf("github.com/%s/%s/internal/%s%d", org, repo, sub, k)
	}
	return fmt.Sprintf("github.com/%s/%s/%s%d", org, repo, sub, k)
}

// funcName makes a Go symbol name in pkg: a function, a method on a value or
// pointer receiver, a closure, or a generic instantiation.
func funcName(r *rand.Rand, pkg string, i int) string {
	verb := verbs[r.IntN(len(verbs))]
	typ := types[r.IntN(len(types))]
	var sym string
	switch r.IntN(10) {
	case 0, 1, 2:
		sym = fmt.Sprintf("%s%s%d", strings.ToLower(verb[:1])+verb[1:], typ, i%97)
	case 3, 4, 5:
		sym = fmt.Sprintf("(*%s).%s%d", typ, verb, i%89)
	case 6:
		sym = fmt.Sprintf("%s.%s%d", typ, verb, i%83)
	case 7:
		sym = fmt.Sprintf("(*%s).%s%d.func%d", typ, verb, i%79, 1+r.IntN(3))
	case 8:
		sym = fmt.Sprintf("%s%d[...]", verb, i%73)
	default:
		sym = fmt.Sprintf("%s%s%d", verb, typ, i%71)
	}
	return pkg + "." + sym
}

// distinctStacks walks the graph until it has c.Stacks distinct stacks (or
// gives up after 4× as many tries) and returns their ids. Depths are normal
// around c.MeanDepth; 3% of calls recurse into the same function.
func distinctStacks(r *rand.Rand, g *graph, b *analysis.Builder, frames []int32, c Config) []int32 {
	root := b.Frame(analysis.Frame{Name: "runtime.goexit", File: "runtime/asm_amd64.s", Line: 1700})
	entries := zipfCDF(len(g.entries), 0.8)
	seen := make(map[int32]bool, c.Stacks)
	var ids []int32
	stack := make([]int32, 0, 4*c.MeanDepth)
	for try := 0; len(ids) < c.Stacks && try < 4*c.Stacks; try++ {
		depth := int(math.Round(r.NormFloat64()*float64(c.MeanDepth)/3 + float64(c.MeanDepth)))
		depth = min(max(depth, 2), 3*c.MeanDepth)
		f := g.entries[pick(entries, r.Float64())]
		stack = append(stack[:0], root, frames[f])
		for len(stack) < depth {
			if r.IntN(100) >= 3 {
				cs := g.callees[f]
				if len(cs) == 0 {
					break
				}
				f = cs[r.IntN(len(cs))]
			}
			stack = append(stack, frames[f])
		}
		id := b.Stack(stack)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}
