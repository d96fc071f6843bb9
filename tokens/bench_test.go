package tokens

import (
	"fmt"
	"strings"
	"testing"
)

// syntheticSchema builds a compact tool definition of roughly size bytes in
// the Anthropic wire form, shaped like a real MCP tool: a long description
// and string, enum, integer and nested-object properties with their own
// descriptions. The text is generated for this benchmark.
func syntheticSchema(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"name":"synthetic_records_search","description":"Searches the record store and returns matching entries. `)
	b.WriteString(strings.Repeat("Results are paginated; pass the cursor from the previous page to continue. ", 3))
	b.WriteString(`","input_schema":{"type":"object","properties":{`)
	for i := 0; b.Len() < size-200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `"field_%d":{"type":"string","description":"Filter on field %d; matching is case-insensitive and ignores accents."}`, i, i)
		case 1:
			fmt.Fprintf(&b, `"limit_%d":{"type":"integer","minimum":1,"maximum":500,"default":50,"description":"Maximum number of entries for group %d."}`, i, i)
		case 2:
			fmt.Fprintf(&b, `"mode_%d":{"type":"string","enum":["fast","thorough","exhaustive","cached"],"description":"Search strategy %d."}`, i, i)
		default:
			fmt.Fprintf(&b, `"range_%d":{"type":"object","properties":{"from":{"type":"string","format":"date-time"},"to":{"type":"string","format":"date-time"}},"required":["from"],"additionalProperties":false}`, i)
		}
	}
	b.WriteString(`},"required":["field_0"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}}`)
	return []byte(b.String())
}

// BenchmarkCount compares counting one real-size tool definition cold (the
// tokenizer runs every time) with counting it through a Memo (a SHA-256 of
// the bytes and a map lookup after the first call), and the tokenizer with
// tiktoken-go's (-reference).
func BenchmarkCount(b *testing.B) {
	for _, size := range []int{2_000, 12_000} {
		schema := syntheticSchema(size)
		for _, name := range []string{"o200k_base", "o200k_base-reference", "cl100k_base", "bytes/3.5"} {
			c, err := benchCounter(name)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%dB/cold", name, len(schema)), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(schema)))
				for b.Loop() {
					c.Count(schema)
				}
			})
			b.Run(fmt.Sprintf("%s/%dB/memo", name, len(schema)), func(b *testing.B) {
				m := NewMemo(c)
				m.Count(schema)
				b.ReportAllocs()
				b.SetBytes(int64(len(schema)))
				for b.Loop() {
					m.Count(schema)
				}
			})
		}
	}
}

// benchCounter is ByName, plus "ENC-reference" for tiktoken-go's own
// counter (the speed the hand-written pre-tokeniser is compared with).
func benchCounter(name string) (Counter, error) {
	if enc, ok := strings.CutSuffix(name, "-reference"); ok {
		return NewReference(enc)
	}
	return ByName(name)
}

// BenchmarkLoadEncoder measures a cold encoder load (offline rank file
// parse and map building). It runs once per process in real use.
func BenchmarkLoadEncoder(b *testing.B) {
	for b.Loop() {
		ranks, err := offlineLoader{inner: embeddedLoaderForBench()}.LoadTiktokenBpe("o200k_base.tiktoken")
		if err != nil || len(ranks) < 100_000 {
			b.Fatalf("ranks %d, err %v", len(ranks), err)
		}
	}
}
