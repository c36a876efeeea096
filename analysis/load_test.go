package analysis

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGzipBomb: decompression stops at the limit with an error, long before
// memory runs out.
func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 64 { // 64 MiB of zeros, about 64 KiB compressed
		zw.Write(zero)
	}
	zw.Close()
	_, err := Parse(context.Background(), "bomb.gz", buf.Bytes(), LoadOptions{Limit: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "bomb.gz: gzip content exceeds the limit of 1048576 decompressed bytes") {
		t.Errorf("Parse(bomb) error = %v, want the limit", err)
	}
	path := filepath.Join(t.TempDir(), "big.folded")
	os.WriteFile(path, bytes.Repeat([]byte("a;b 1\n"), 1000), 0o644)
	if _, err := Load(context.Background(), path, LoadOptions{Limit: 100}); err == nil || !strings.Contains(err.Error(), "larger than the limit of 100 bytes") {
		t.Errorf("Load(big, limit=100) error = %v, want the limit", err)
	}
}
