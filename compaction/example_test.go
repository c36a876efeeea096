package compaction_test

import (
	"fmt"
	"os"
	"regexp"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/compaction"
)

func toyTree() *analysis.Tree {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		panic(err)
	}
	return analysis.NewTree(p)
}

// Figure 6 of the paper: every frame at level 1 (its package).
func ExampleCompact() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 1), 0)
	fmt.Println(v.Counts())
	v.WriteText(os.Stdout, 0)
	// Output:
	// 11 call-tree nodes → 3 compacted nodes
	// lib1 [6]  (8a70)
	//   lib2 [6]  (a5d1)
	//     lib3 [6]  (212e)
}

// Figure 7: expanding lib2 from Figure 6 shows its classes.
func ExampleStep() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 1), 0)
	lib2, _ := v.Resolve("lib1 > lib2")
	_, v, err := compaction.Step(v, lib2, +1)
	if err != nil {
		fmt.Println(err)
		return
	}
	v.WriteText(os.Stdout, 0)
	// Compacting lib2.Muscle back to lib2 would put it under lib2.Lung.
	muscle, _ := v.Resolve("lib1 > lib2.Lung > lib2.Muscle")
	_, _, err = compaction.Step(v, muscle, -1)
	fmt.Println(err)
	// Output:
	// lib1 [6]  (8a70)
	//   lib2.Lung [6]  (ad9e)
	//     lib2.Muscle [6]  (fe77)
	//       lib2.Nerve [5]  (41b4)
	//         lib3 [5]  (212e)
	//       lib3 [1]  (f3ac)
	// compact lib2.Muscle refused: lib2 would be coarser than its parent lib2.Lung (R1: a child cannot take over its parent); compact lib2.Lung first
}

// Figure 10: lib2 at level 1, everything else at full names.
func ExampleState_SetLevel() {
	t := toyTree()
	s, n, _ := compaction.NewState(t, 99).SetLevel(t, 1, regexp.MustCompile(`^lib2\.`))
	fmt.Println(n, "nodes set")
	compaction.Compact(t, s, 0).WriteText(os.Stdout, 0)
	// Output:
	// 5 nodes set
	// lib1.Whale.breath [6]  (2ebc)
	//   lib1.Mammal.inhale [6]  (a919)
	//     lib2 [6]  (a5d1)
	//       lib3.Signal.travel [5]  (eb66)
	//       lib3.Pressure.foo [1]  (6303)
	//         lib3.Blood.flow [1]  (527a)
}

func ExampleView_Resolve() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 1), 0)
	for _, target := range []string{"a5d1", "lib1 > lib2 > lib3", "all", "lib1 > lib9"} {
		i, err := v.Resolve(target)
		if err != nil {
			fmt.Println(err)
		} else if i < 0 {
			fmt.Println(target, "= every node")
		} else {
			fmt.Println(target, "=", v.Path(i))
		}
	}
	// Output:
	// a5d1 = lib1 > lib2
	// lib1 > lib2 > lib3 = lib1 > lib2 > lib3
	// all = every node
	// path "lib1 > lib9": no node named "lib9" under lib1 (there: lib2)
}

// After expanding lib2 (Figure 6 to Figure 7), every node but lib1 is new:
// lib1 keeps its members, the others split or regroup them.
func ExampleView_NewSince() {
	t := toyTree()
	before := compaction.Compact(t, compaction.NewState(t, 1), 0)
	lib2, _ := before.Resolve("lib1 > lib2")
	_, after, _ := compaction.Step(before, lib2, +1)
	isNew := after.NewSince(before)
	for _, i := range after.Preorder() {
		fmt.Println(after.Path(i), isNew[i])
	}
	// Output:
	// lib1 false
	// lib1 > lib2.Lung true
	// lib1 > lib2.Lung > lib2.Muscle true
	// lib1 > lib2.Lung > lib2.Muscle > lib2.Nerve true
	// lib1 > lib2.Lung > lib2.Muscle > lib2.Nerve > lib3 true
	// lib1 > lib2.Lung > lib2.Muscle > lib3 true
}

// At level 2 the toy profile shows classes; each name's elements.
func ExampleView_Elements() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 2), 0)
	for _, i := range v.Preorder() {
		fmt.Printf("%q\n", v.Elements(i))
	}
	// Output:
	// ["lib1" ".Whale"]
	// ["lib1" ".Mammal"]
	// ["lib2" ".Lung"]
	// ["lib2" ".Muscle"]
	// ["lib2" ".Nerve"]
	// ["lib3" ".Signal"]
	// ["lib3" ".Pressure"]
	// ["lib3" ".Blood"]
}

func ExampleView_Find() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 99), 0)
	for _, target := range []string{"Signal.travel", "transmit", "Muscle"} {
		f, err := v.Find(target)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s at %d places\n", target, f.Name, len(f.Nodes))
	}
	// Output:
	// Signal.travel: lib3.Signal.travel at 2 places
	// transmit: lib2.Nerve.transmit at 2 places
	// no compacted node has handle or name "Muscle", nor a name ending with it (run view to list the handles)
}
