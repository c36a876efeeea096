package demo

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sort"
	"sync/atomic"
	"time"
)

// worker holds the phases' buffers, reused so that the garbage collector
// stays quiet. One worker runs at a time.
type worker struct {
	r       *rand.Rand
	records []record
	ints    []int
	text    []byte
	buf     bytes.Buffer
	zw      *flate.Writer
	sink    int
}

type record struct {
	ID    int               `json:"id"`
	Name  string            `json:"name"`
	Score float64           `json:"score"`
	Tags  map[string]string `json:"tags"`
}

var theWorker = newWorker()

func newWorker() *worker {
	w := &worker{r: rand.New(rand.NewPCG(7, 11)), ints: make([]int, 50000)}
	for i := range 200 {
		w.records = append(w.records, record{ID: i, Name: "item", Score: float64(i) / 3, Tags: map[string]string{"k": "v"}})
	}
	for range 4000 {
		w.text = append(w.text, "phase demo "...)
	}
	w.zw, _ = flate.NewWriter(&w.buf, flate.DefaultCompression)
	return w
}

// phases are the units of work of each phase, each a few milliseconds.
var phases = map[string]func(*worker){
	"encode":   (*worker).encode,
	"sort":     (*worker).sort,
	"hash":     (*worker).hash,
	"compress": (*worker).compress,
}

func phaseNames() []string {
	var names []string
	for n := range phases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// The demo's own counters, which it registers with the agent: units of
// work done, and whether it works (1) or idles (0).
var unitsDone, working atomic.Int64

// do runs units of phase name until end.
func (w *worker) do(name string, end time.Time) {
	if name == "idle" {
		working.Store(0)
		time.Sleep(time.Until(end))
		return
	}
	working.Store(1)
	w.unit(name)
}

func (w *worker) unit(name string) {
	phases[name](w)
	unitsDone.Add(1)
}

// encode marshals and unmarshals records as JSON.
func (w *worker) encode() {
	b, _ := json.Marshal(w.records)
	var back []record
	json.Unmarshal(b, &back)
	w.sink += len(back)
}

// sort sorts random integers.
func (w *worker) sort() {
	for i := range w.ints {
		w.ints[i] = w.r.Int()
	}
	slices.Sort(w.ints)
	w.sink += w.ints[0] & 1
}

// hash hashes the text.
func (w *worker) hash() {
	for range 16 {
		sum := sha256.Sum256(w.text)
		w.sink += int(sum[0])
	}
}

// compress deflates the text.
func (w *worker) compress() {
	w.buf.Reset()
	w.zw.Reset(&w.buf)
	w.zw.Write(w.text)
	w.zw.Close()
	w.sink += w.buf.Len()
}
