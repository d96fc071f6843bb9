package main

import (
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// gunzip returns the decompressed contents of the gzip file at path (a
// generated trace.jsonl.gz, small in tests).
func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
