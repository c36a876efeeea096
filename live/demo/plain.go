package demo

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // the plain service's profiles, on http.DefaultServeMux
	"strconv"
	"sync"
	"time"
)

// servePlain serves http.DefaultServeMux, where net/http/pprof registered
// its handlers, as a service does.
func servePlain(addr, _ string, stdout io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.DefaultServeMux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "listening on http://%s (net/http/pprof)\n", ln.Addr())
	return func() { srv.Close() }, nil
}

// plainWorkers is how many workers take jobs.
const plainWorkers = 3

// runPlain runs a small service's work until ctx ends: a producer queues
// jobs; workers encode each as JSON, hash it, and count it in a map
// shared under a mutex.
func runPlain(ctx context.Context) {
	jobs := make(chan int, 64)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range plainWorkers {
		wg.Go(func() {
			for j := range jobs {
				b, _ := json.Marshal(map[string]any{"job": j, "payload": make([]int, 200)})
				sum := sha256.Sum256(b)
				mu.Lock()
				seen[strconv.Itoa(int(sum[0]))]++
				mu.Unlock()
			}
		})
	}
	for i := 0; ctx.Err() == nil; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
}
