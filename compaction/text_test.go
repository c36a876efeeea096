package compaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestWriteJSONIsEncodingJSON: on random views whose names need every kind
// of JSON escaping, some of them made of that one kind of character only,
// WriteJSON writes exactly what encoding/json writes of Doc, compact and
// indented.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	odd := []string{"a.<X>", "b.f&g", "c.\"q\"", "a.\\p", "b.é.ü", "c.\u2028", "a.\x01", "b.\xff\xfe", "c.日本",
		// names of one kind of character only
		"<", ">", "&", "\"", "\\", "\u2028", "\x01\x1f", "\xff", "é", "\x7f", " ", "~"}
	for k := range 200 {
		specs := randomSpecs(r, 60, 0)
		for i := range specs {
			if r.IntN(4) == 0 {
				specs[i].name = odd[r.IntN(len(odd))]
			}
		}
		if k == 0 {
			specs = nil // a view without nodes
		}
		tr, _ := build(specs)
		v := Compact(tr, randomLevels(r, tr), 0)
		profile := []string{"p", "p<&>\"", "日本"}[k%3]
		for _, indent := range []string{"", " ", "\t"} {
			var got bytes.Buffer
			if err := v.WriteJSON(&got, profile, indent); err != nil {
				t.Fatal(err)
			}
			want, err := json.MarshalIndent(v.Doc(profile), "", indent)
			if indent == "" {
				want, err = json.Marshal(v.Doc(profile))
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("WriteJSON(indent %q) =\n%s\nwant\n%s", indent, got.Bytes(), want)
			}
		}
	}
}

// failAfter takes n bytes, then fails every write and counts the calls.
type failAfter struct {
	n     int
	calls int // writes after the first failure
}

var errFail = errors.New("full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < 0 {
		f.calls++
		return 0, errFail
	}
	if f.n -= len(p); f.n < 0 {
		return 0, errFail
	}
	return len(p), nil
}

// TestWritersStop: WriteJSON and WriteText stop at the first failed write
// and return its error, writing nothing more.
func TestWritersStop(t *testing.T) {
	tr := wideTree()
	v := Compact(tr, NewState(tr, 2), 0)
	var whole bytes.Buffer
	v.WriteText(&whole, 0)
	for _, n := range []int{0, 100, 5000, whole.Len() / 2, whole.Len() - 1} {
		w := &failAfter{n: n}
		if err := v.WriteJSON(w, "wide", " "); !errors.Is(err, errFail) || w.calls > 0 {
			t.Errorf("WriteJSON failing after %d bytes: %v and %d writes after, want the error and none", n, err, w.calls)
		}
		w = &failAfter{n: n}
		if err := v.WriteText(w, 0); !errors.Is(err, errFail) || w.calls > 0 {
			t.Errorf("WriteText failing after %d bytes: %v and %d writes after, want the error and none", n, err, w.calls)
		}
	}
}
