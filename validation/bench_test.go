package validation

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// BenchmarkCheckWarm measures Check on a warm memo: a stale-schema call of
// the rename example (shape, validate, classify a failure) and a valid one.
func BenchmarkCheckWarm(b *testing.B) {
	v := New()
	cases := []struct {
		name               string
		seen, served, args []byte
	}{
		{"malformed", []byte(v1), []byte(v2), []byte(`{"path":"a","mode":"fast","depth":3}`)},
		{"valid", []byte(v1), []byte(v4), []byte(`{"path":"a","mode":"fast","depth":3}`)},
	}
	for _, c := range cases {
		v.Check(c.seen, c.served, c.args)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Check(c.seen, c.served, c.args)
			}
		})
	}
}

// BenchmarkCheckRealWarm checks full recorded-style arguments of every tool
// of a large real catalog against its next version, memo warm.
func BenchmarkCheckRealWarm(b *testing.B) {
	from, err := catalog.LoadFile(shareddata.Path(b, "catalogs", "zereight__mcp-gitlab@2.0.34.json"))
	if err != nil {
		b.Fatal(err)
	}
	to, err := catalog.LoadFile(shareddata.Path(b, "catalogs", "zereight__mcp-gitlab@2.1.49.json"))
	if err != nil {
		b.Fatal(err)
	}
	type call struct{ seen, served, args []byte }
	var calls []call
	for _, t := range from.Tools {
		nt := to.Tool(t.Name)
		if nt == nil {
			continue
		}
		args, err := Example(t.InputSchema, true)
		if err != nil {
			continue
		}
		calls = append(calls, call{t.InputSchema, nt.InputSchema, args})
	}
	v := New()
	for _, c := range calls {
		v.Check(c.seen, c.served, c.args)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := calls[i%len(calls)]
		v.Check(c.seen, c.served, c.args)
	}
}
