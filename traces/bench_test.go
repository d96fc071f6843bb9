package traces

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// benchTrace is a realistic in-memory trace: 2,000 generated sessions,
// interleaved four at a time.
func benchTrace(b *testing.B, compress bool) (data []byte, events int) {
	b.Helper()
	sessions := genSessions(42, 2000)
	for _, s := range sessions {
		events += len(s.Events)
	}
	return encodeSessions(b, sessions, compress, 4), events
}

// BenchmarkDecode reads and decodes a whole trace per iteration. MB/s is of
// the uncompressed JSONL (also for gzip, so the figures compare).
func BenchmarkDecode(b *testing.B) { benchDecode(b, func() ReadOptions { return ReadOptions{} }) }

// benchDecode reads and decodes the benchmark trace, plain and gzip, with
// the options opts returns for each read.
func benchDecode(b *testing.B, opts func() ReadOptions) {
	plain, events := benchTrace(b, false)
	gz, _ := benchTrace(b, true)
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", plain}, {"gzip", gz}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(plain)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := NewReader(bytes.NewReader(tc.data), "bench", opts())
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for s, err := range r.Sessions() {
					if err != nil {
						b.Fatal(err)
					}
					n += len(s.Events)
				}
				if n != events {
					b.Fatalf("decoded %d events, want %d", n, events)
				}
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkDecodeEvent decodes single lines: the cost decodeEvent alone adds.
func BenchmarkDecodeEvent(b *testing.B) {
	data, _ := benchTrace(b, false)
	ls := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	b.SetBytes(int64(len(data)) / int64(len(ls)))
	b.ReportAllocs()
	var ev Event
	i := 0
	for b.Loop() {
		if err := decodeEvent(ls[i], &ev); err != nil {
			b.Fatal(err)
		}
		i++
		if i == len(ls) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkValidate measures Validate on the same trace.
func BenchmarkValidate(b *testing.B) {
	data, events := benchTrace(b, false)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		probs, _, err := ValidateReader(bytes.NewReader(data), "bench", ValidateOptions{})
		if err != nil || len(probs) > 0 {
			b.Fatalf("%v %v", err, probs)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeSeen is BenchmarkDecode with ReadOptions.Seen, as a run
// reads: the cost of remembering every session (compare with benchstat,
// the names aligned).
func BenchmarkDecodeSeen(b *testing.B) {
	benchDecode(b, func() ReadOptions { return ReadOptions{Seen: NewSessionSet()} })
}

// BenchmarkSessionSet records a million distinct session ids per
// iteration (ns/session), after measuring the heap the set holds per
// session once (bytes/session, the figure docs/performance.md states).
func BenchmarkSessionSet(b *testing.B) {
	const n = 1 << 20
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("8c5e2a4f-%04x-4b1d-9a7e-%012x", i%0x10000, i) // uuid-like
	}
	fill := func() *SessionSet {
		s := NewSessionSet()
		s.addFile("bench")
		for i, id := range ids {
			if _, _, dup := s.start(id, 0, i+1, true); dup {
				b.Fatalf("%s taken for a repeat", id)
			}
		}
		return s
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := fill()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	perSession := float64(after.HeapAlloc-before.HeapAlloc) / n
	for b.Loop() {
		fill()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/session")
	b.ReportMetric(perSession, "bytes/session")
}
