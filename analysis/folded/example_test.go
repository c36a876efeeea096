package folded_test

import (
	"context"
	"os"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/folded"
)

// Identical stacks add up, stacks that weigh nothing are left out, and the
// lines are sorted.
func ExampleWrite() {
	p, _ := analysis.Parse(context.Background(), "toy.folded", []byte("main;read 3\nmain;parse;lex 2\nmain;read 1\nmain;idle 0\n"), analysis.LoadOptions{})
	folded.Write(os.Stdout, p, 0)
	// Output:
	// main;parse;lex 2
	// main;read 4
}
