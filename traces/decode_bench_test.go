package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// BenchmarkUnmarshalEvent compares the decoders decodeJSON chains on
// the lines of the benchmark trace (docs/performance.md): encoding/json
// alone, github.com/segmentio/encoding/json with encoding/json's time
// parsing and nesting limit, and the layout decoder (the fast path).
func BenchmarkUnmarshalEvent(b *testing.B) {
	data, _ := benchTrace(b, false)
	ls := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for _, tc := range []struct {
		name string
		dec  func([]byte, *Event) error
	}{
		{"decoder=encoding-json", func(l []byte, ev *Event) error { *ev = Event{}; return json.Unmarshal(l, ev) }},
		{"decoder=segmentio", func(l []byte, ev *Event) error {
			if !decodeFast(l, ev) {
				return errors.New("declined")
			}
			return nil
		}},
		{"decoder=layout", func(l []byte, ev *Event) error {
			*ev = Event{}
			if !decodeLayout(l, ev, nil) {
				return errors.New("declined")
			}
			return nil
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var ev Event
			for b.Loop() {
				for _, l := range ls {
					if err := tc.dec(l, &ev); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(ls))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkDuplicateKeyScan measures the duplicate-key check decodeEvent
// makes on every line (findDuplicateKey) on the lines of the benchmark
// trace, to set against BenchmarkUnmarshalEvent/decoder=fast.
func BenchmarkDuplicateKeyScan(b *testing.B) {
	data, _ := benchTrace(b, false)
	ls := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range ls {
			if _, dup := findDuplicateKey(l); dup {
				b.Fatal("duplicate key in the benchmark trace")
			}
		}
	}
}
