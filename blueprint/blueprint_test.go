package blueprint

import (
	"math/rand"
	"testing"
)

// TestMarkRecursionRandom: MarkRecursion equals the nearest ancestor of the
// same name found by walking up from each box, on random trees.
func TestMarkRecursionRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	names := []string{"a", "b", "c", "d"}
	for round := range 300 {
		b := &Blueprint{}
		for i := range 1 + r.Intn(60) {
			box := Box{Name: names[r.Intn(len(names))], Parent: -1}
			if i > 0 && r.Intn(8) > 0 {
				box.Parent = int32(r.Intn(i))
				b.Boxes[box.Parent].Kids = append(b.Boxes[box.Parent].Kids, int32(i))
			} else {
				b.Roots = append(b.Roots, int32(i))
			}
			b.Boxes = append(b.Boxes, box)
		}
		b.MarkRecursion()
		for i, box := range b.Boxes {
			want := int32(-1)
			for p := box.Parent; p >= 0; p = b.Boxes[p].Parent {
				if b.Boxes[p].Name == box.Name {
					want = p
					break
				}
			}
			if box.Recursive != want {
				t.Fatalf("round %d: box %d (%s) recursive %d, want %d", round, i, box.Name, box.Recursive, want)
			}
		}
	}
}
