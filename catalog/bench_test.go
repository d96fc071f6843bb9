package catalog

import (
	"fmt"
	"testing"
)

// BenchmarkDiffWideSchema diffs two versions of a tool whose schema has
// props properties (widePair: a removal, a type change, a rename, an
// addition), with DiffTool (catalog diff, history) and PropertyRenames
// (the engine's validation of calls made with a stale schema). Linear in
// props: 10× the properties should cost about 10× the time.
func BenchmarkDiffWideSchema(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		ra, rb := widePair(n)
		ta, err := NewTool([]byte(ra))
		if err != nil {
			b.Fatal(err)
		}
		tb, err := NewTool([]byte(rb))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("props=%d/DiffTool", n), func(b *testing.B) {
			for b.Loop() {
				DiffTool(ta, tb)
			}
		})
		b.Run(fmt.Sprintf("props=%d/PropertyRenames", n), func(b *testing.B) {
			for b.Loop() {
				PropertyRenames(ta, tb)
			}
		})
	}
}
