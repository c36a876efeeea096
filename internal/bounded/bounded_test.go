package bounded

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestReadAll: every length, announced rightly, wrongly or not at all, reads
// back the stream's bytes, or is refused exactly when it passes the limit.
func TestReadAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		length := rng.Int64N(3 * lastChunk)
		limit := rng.Int64N(3 * lastChunk)
		size := []int64{0, length, length / 2, length * 2, 1}[rng.IntN(5)]
		data := make([]byte, length)
		for i := range data {
			data[i] = byte(i * 7)
		}
		got, err := ReadAll(iotestHalf(bytes.NewReader(data)), limit, size)
		if length > limit {
			var tl *TooLarge
			if !errors.As(err, &tl) || tl.Max != limit {
				t.Fatalf("ReadAll(%d bytes, limit %d, size %d) = %d bytes, %v; want TooLarge", length, limit, size, len(got), err)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("ReadAll(%d bytes, limit %d, size %d) = %d bytes, %v", length, limit, size, len(got), err)
		}
	}
}

// TestReadAllEndless: an endless stream is refused having read the limit
// and one byte more, not the doubling of a growing buffer.
func TestReadAllEndless(t *testing.T) {
	const limit = 20 << 20
	r := &counting{}
	if _, err := ReadAll(r, limit, 0); err == nil {
		t.Fatal("an endless stream was accepted")
	}
	if r.n > limit+1 {
		t.Errorf("read %d bytes of an endless stream for a limit of %d", r.n, limit)
	}
	allocs := testing.AllocsPerRun(3, func() { ReadAll(&counting{}, limit, 0) })
	if allocs > 20 {
		t.Errorf("%v allocations to refuse an endless stream", allocs)
	}
}

// TestReadAllError: a failing stream gives its error, io.ErrUnexpectedEOF
// (a truncated gzip stream's) included.
func TestReadAllError(t *testing.T) {
	for _, want := range []error{errors.New("boom"), io.ErrUnexpectedEOF} {
		if _, err := ReadAll(io.MultiReader(bytes.NewReader([]byte("abc")), errReader{want}), 100, 0); !errors.Is(err, want) {
			t.Errorf("ReadAll = %v, want %v", err, want)
		}
	}
}

type counting struct{ n int64 }

func (c *counting) Read(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// iotestHalf reads at most half of what is asked, as pipes and sockets do.
func iotestHalf(r io.Reader) io.Reader { return half{r} }

type half struct{ r io.Reader }

func (h half) Read(p []byte) (int, error) { return h.r.Read(p[:max(1, len(p)/2)]) }
