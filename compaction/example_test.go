package compaction_test

import (
	"fmt"
	"os"
	"regexp"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

func toyTree() *analysis.Tree {
	p, err := analysis.Demo("profvis-toy")
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
	// lib1 [6]  (36f9)
	//   lib2 [6]  (5d8b)
	//     lib3 [6]  (e13c)
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
	// lib1 [6]  (36f9)
	//   lib2.Lung [6]  (68b6)
	//     lib2.Muscle [6]  (7aae)
	//       lib2.Nerve [5]  (3f8b)
	//         lib3 [5]  (54b2)
	//       lib3 [1]  (e01d)
	// compact lib2.Muscle: refused: lib2 is coarser than its parent lib2.Lung (R1: a child cannot take over its parent); compact lib2.Lung first
}

// Figure 10: lib2 at level 1, everything else at full names.
func ExampleState_SetLevel() {
	t := toyTree()
	s, n, _ := compaction.NewState(t, 99).SetLevel(t, 1, regexp.MustCompile(`^lib2\.`))
	fmt.Println(n, "nodes set")
	compaction.Compact(t, s, 0).WriteText(os.Stdout, 0)
	// Output:
	// 5 nodes set
	// lib1.Whale.breath [6]  (d9d7)
	//   lib1.Mammal.inhale [6]  (70f3)
	//     lib2 [6]  (79fa)
	//       lib3.Signal.travel [5]  (c2ab)
	//       lib3.Pressure.foo [1]  (e77e)
	//         lib3.Blood.flow [1]  (daa3)
}

func ExampleView_Resolve() {
	t := toyTree()
	v := compaction.Compact(t, compaction.NewState(t, 1), 0)
	for _, target := range []string{"5d8b", "lib1 > lib2 > lib3", "all", "lib1 > lib9"} {
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
	// 5d8b = lib1 > lib2
	// lib1 > lib2 > lib3 = lib1 > lib2 > lib3
	// all = every node
	// path "lib1 > lib9": no node named "lib9" under lib1 (there: lib2)
}
