package otel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/defersim/defersim/traces/importers/ingest"
)

// export is one OTLP JSON ExportTraceServiceRequest.
type export struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []keyValue `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Scope struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"scope"`
			Spans []span `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

// span is one OTLP span, as far as the importer reads it.
type span struct {
	TraceID      string          `json:"traceId"`
	SpanID       string          `json:"spanId"`
	ParentSpanID string          `json:"parentSpanId"`
	Name         string          `json:"name"`
	Start        json.RawMessage `json:"startTimeUnixNano"`
	End          json.RawMessage `json:"endTimeUnixNano"`
	Attributes   []keyValue      `json:"attributes"`
	Events       []struct {
		Name string `json:"name"`
	} `json:"events"`
	Status struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"status"`

	// filled by the importer
	start, end time.Time
	attrs      map[string]any
	resource   map[string]any
	scope      string
	pos        string
	file       string // the base name of the file it was read from
	path       string // the file's path as given
	seq        int    // the span's place in its file
}

// keyValue is an OTLP attribute.
type keyValue struct {
	Key   string   `json:"key"`
	Value anyValue `json:"value"`
}

// anyValue is an OTLP AnyValue; exactly one member is set.
type anyValue struct {
	StringValue *string         `json:"stringValue"`
	BoolValue   *bool           `json:"boolValue"`
	IntValue    json.RawMessage `json:"intValue"`
	DoubleValue json.RawMessage `json:"doubleValue"`
	BytesValue  *string         `json:"bytesValue"`
	ArrayValue  *struct {
		Values []anyValue `json:"values"`
	} `json:"arrayValue"`
	KvlistValue *struct {
		Values []keyValue `json:"values"`
	} `json:"kvlistValue"`
}

// value converts v to string, bool, int64, float64, []any or map[string]any
// (nil when empty), with a depth limit against hostile nesting.
func (v anyValue) value(depth int) (any, error) {
	if depth > 64 {
		return nil, fmt.Errorf("attribute value nested too deeply")
	}
	switch {
	case v.StringValue != nil:
		return *v.StringValue, nil
	case v.BoolValue != nil:
		return *v.BoolValue, nil
	case v.IntValue != nil:
		n, err := ingest.ParseInt(v.IntValue)
		if err != nil {
			return nil, fmt.Errorf("intValue: %w", err)
		}
		return n, nil
	case v.DoubleValue != nil:
		var f float64
		if err := json.Unmarshal(v.DoubleValue, &f); err != nil {
			var s string
			if json.Unmarshal(v.DoubleValue, &s) != nil {
				return nil, fmt.Errorf("doubleValue: want a number")
			}
			if f, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("doubleValue: want a number")
			}
		}
		return f, nil
	case v.BytesValue != nil:
		return *v.BytesValue, nil
	case v.ArrayValue != nil:
		out := make([]any, 0, len(v.ArrayValue.Values))
		for _, e := range v.ArrayValue.Values {
			x, err := e.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	case v.KvlistValue != nil:
		out := make(map[string]any, len(v.KvlistValue.Values))
		for _, kv := range v.KvlistValue.Values {
			x, err := kv.Value.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out[kv.Key] = x
		}
		return out, nil
	}
	return nil, nil
}

// attrMap converts an attribute list to a map (a repeated key keeps its
// first value).
func attrMap(kvs []keyValue) (map[string]any, error) {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		if _, dup := m[kv.Key]; dup {
			continue
		}
		v, err := kv.Value.value(0)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", kv.Key, err)
		}
		m[kv.Key] = v
	}
	return m, nil
}

// unixNano reads an OTLP time (nanoseconds since the epoch, as a string or
// a number); zero or absent is the zero time.
func unixNano(raw json.RawMessage) (time.Time, error) {
	if ingest.IsNull(raw) {
		return time.Time{}, nil
	}
	n, err := ingest.ParseInt(raw)
	if err != nil {
		return time.Time{}, fmt.Errorf("time: %w", err)
	}
	if n <= 0 {
		return time.Time{}, nil
	}
	return time.Unix(0, n).UTC(), nil
}

// isError reports whether an OTLP status code means error (2 or
// "STATUS_CODE_ERROR").
func isError(code json.RawMessage) bool {
	s := strings.Trim(string(code), `" `)
	return s == "2" || s == "STATUS_CODE_ERROR"
}

// str returns attribute key of m as a string ("" when absent); numbers and
// other values are rendered as JSON.
func str(m map[string]any, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// num returns attribute key of m as an integer.
func num(m map[string]any, key string) (int64, bool) {
	switch v := m[key].(type) {
	case int64:
		return v, true
	case float64:
		return int64(v), v == float64(int64(v))
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// jsonAttr returns attribute key of m as JSON: a string attribute holding
// JSON is returned as is, a structured one is encoded.
func jsonAttr(m map[string]any, key string) json.RawMessage {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(s)
		return b
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
