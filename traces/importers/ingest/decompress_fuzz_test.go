package ingest

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// FuzzDecompress pins Decompress's contract on any input: plain data comes
// back as it is (less a leading UTF-8 byte order mark), the gzip of any
// data comes back as that data (less its mark), and a damaged gzip stream
// is an error, never a panic. The importers' own fuzz targets read through
// Import and skip Decompress, so its gzip and BOM handling were covered by
// table tests only.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte(`{"a":1}`), false)
	f.Add([]byte("\xef\xbb\xbf{\"a\":1}\r\n"), true)
	f.Add([]byte{0x1f, 0x8b}, false)
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, false)
	f.Add([]byte("\xef\xbb"), true)
	f.Fuzz(func(t *testing.T, data []byte, zip bool) {
		want := bytes.TrimPrefix(data, []byte(utf8BOM))
		in := data
		if zip {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			_, _ = w.Write(data)
			_ = w.Close()
			in = b.Bytes()
		} else if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			// Plain data that starts like gzip is read as gzip: any
			// outcome but a panic will do.
			if r, err := Decompress(bytes.NewReader(data)); err == nil {
				_, _ = io.ReadAll(r)
			}
			return
		}
		r, err := Decompress(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("Decompress: %v", err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
