package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestReadmeTour runs the command block of the README's tour, so that the
// first commands a reader copies keep working.
func TestReadmeTour(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, tour, ok := strings.Cut(string(readme), "## A short tour")
	if !ok {
		t.Fatal("README.md has no section \"## A short tour\"")
	}
	parts := strings.SplitN(tour, "```", 3)
	if len(parts) < 3 {
		t.Fatal("the README's tour has no code block")
	}
	block := strings.TrimPrefix(parts[1], "\n")
	if strings.Count(block, "\n") < 5 {
		t.Fatalf("the README's tour block is too short to be the tour:\n%s", block)
	}
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	if status := run(context.Background(), []string{"-c", block}, nil, &stdout, &stderr); status != 0 {
		t.Errorf("the README's tour fails (status %d):\n%s", status, stderr.String())
	}
	if !strings.Contains(stdout.String(), "proflens ") {
		t.Errorf("the README's tour printed no version line:\n%s", stdout.String())
	}
}
