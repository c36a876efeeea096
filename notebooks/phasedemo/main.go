// Command phasedemo is a small program with known phases, for testing and
// showing phase detection. It runs a schedule of CPU-bound phases,
// each in a different part of the standard library, plus idle stretches, and
// records a Go execution trace with CPU samples: the CPU profiler runs at
// the same time, so the trace carries timestamped stack samples. Each phase
// runs inside a runtime/trace region named after it, which gives the ground
// truth from the same file.
//
//	go run ./notebooks/phasedemo -o notebooks/data/phasedemo-1.trace \
//	    -schedule parse:1.5s,sort:1.5s,hash:1.5s,idle:1.5s,sort:1.5s,compress:1.5s
package main

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var work = map[string]func(r *rand.Rand){
	"parse":    parse,
	"sort":     sortInts,
	"hash":     hash,
	"compress": compress,
}

func main() {
	out := flag.String("o", "phasedemo.trace", "trace file to write")
	schedule := flag.String("schedule", "parse:1.5s,sort:1.5s,hash:1.5s,idle:1.5s,sort:1.5s,compress:1.5s", "phases to run, NAME:DURATION, comma-separated; NAME is parse, sort, hash, compress (DURATION of CPU time) or idle (wall time)")
	hz := flag.Int("hz", 250, "CPU sampling rate")
	seed := flag.Uint64("seed", 1, "random seed for the phases' data")
	flag.Parse()
	steps, err := parseSchedule(*schedule)
	if err != nil {
		log.Fatal(err)
	}
	if err := record(*out, steps, *hz, *seed); err != nil {
		log.Fatal(err)
	}
}

type step struct {
	name string
	d    time.Duration
}

func parseSchedule(s string) ([]step, error) {
	var out []step
	for _, part := range strings.Split(s, ",") {
		name, dur, ok := strings.Cut(part, ":")
		d, err := time.ParseDuration(dur)
		if _, known := work[name]; !ok || err != nil || (!known && name != "idle") {
			return nil, fmt.Errorf("schedule %q: want NAME:DURATION with NAME one of parse, sort, hash, compress, idle", part)
		}
		out = append(out, step{name, d})
	}
	return out, nil
}

func record(path string, steps []step, hz int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Raise the sampling rate above pprof's fixed 100 Hz: the runtime keeps
	// the first rate set, and StartCPUProfile's own request is refused with
	// a warning on stderr.
	runtime.SetCPUProfileRate(hz)
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		return err
	}
	if err := trace.Start(f); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, seed))
	ctx := context.Background()
	for _, s := range steps {
		trace.WithRegion(ctx, s.name, func() { run(s, r) })
	}
	trace.Stop()
	pprof.StopCPUProfile()
	return f.Close()
}

func run(s step, r *rand.Rand) {
	if s.name == "idle" {
		time.Sleep(s.d)
		return
	}
	fn := work[s.name]
	for end := cpuTime() + s.d; cpuTime() < end; {
		fn(r)
	}
}

// cpuTime returns the process's user and system CPU time. Phases last a
// given CPU time rather than wall time, so that a busy machine stretches a
// recording but keeps its number of samples per phase.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// The phases reuse their buffers, so that the garbage collector stays
// quiet and the trace small.
var (
	sink        int
	text        []byte
	ints        = make([]int, 20000)
	block       = bytes.Repeat([]byte("proflens phase demo "), 4096)
	deflater, _ = flate.NewWriter(io.Discard, flate.BestCompression)
)

// parse formats and re-reads numbers as text.
func parse(r *rand.Rand) {
	text = text[:0]
	for range 2000 {
		text = strconv.AppendFloat(text, r.Float64()*1e6, 'g', -1, 64)
		text = append(text, ' ')
	}
	for w := range strings.FieldsSeq(string(text)) {
		x, _ := strconv.ParseFloat(w, 64)
		sink += int(x)
	}
}

// sortInts sorts random integers.
func sortInts(r *rand.Rand) {
	for i := range ints {
		ints[i] = r.IntN(1 << 30)
	}
	slices.Sort(ints)
	sink += ints[0]
}

// hash hashes a buffer repeatedly.
func hash(*rand.Rand) {
	for range 64 {
		h := sha256.Sum256(block)
		sink += int(h[0])
	}
}

// compress deflates a buffer of numbers as text.
func compress(r *rand.Rand) {
	text = text[:0]
	for range 2000 {
		text = strconv.AppendInt(text, int64(r.IntN(1000)), 10)
		text = append(text, ' ')
	}
	deflater.Reset(io.Discard)
	deflater.Write(text)
	deflater.Close()
}
