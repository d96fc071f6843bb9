// Package otel imports OpenTelemetry GenAI spans exported as OTLP JSON:
// "chat <model>" spans become model requests (with usage and the messages
// when recorded), "execute_tool <name>" spans become tool calls. Spans are
// grouped into sessions by gen_ai.conversation.id, else by trace id,
// over every file of one import (ImportFiles).
package otel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/defersim/defersim/traces/importers/ingest"
)

// Format is the format name of this importer.
const Format = "otel"

// DefaultServer is the server of tools whose spans name none.
const DefaultServer = "otel"

// Importer reads OTLP JSON trace exports.
type Importer struct{}

// New returns an otel importer.
func New() *Importer { return &Importer{} }

// ImportFile imports the sessions of the file at path.
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	return im.ImportFiles([]string{path}, opts, sink, rep)
}

// ImportFiles imports the spans of every file at paths as one export: a
// collector's file exporter rotates its files, so the spans of one trace
// (one conversation) may be in several. Each file was grouped alone
// before, and a trace split over two files became two sessions, each
// without the other's requests and results (TestTraceSplitOverFiles). A
// span (trace id and span id) read twice is an error naming both places:
// overlapping exports would otherwise replay it twice in one session.
func (im *Importer) ImportFiles(paths []string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	var all []*span
	first := map[[2]string]*span{}
	// byContent holds the spans without a trace or span id, by content:
	// one in an earlier file with the same content is the same span read
	// twice (TestSpanWithoutIDReadTwice).
	byContent := map[string]*span{}
	for _, path := range paths {
		name := filepath.Base(path)
		data, err := ingest.ReadFile(path)
		if err != nil {
			return &ingest.InputError{Path: path, Err: err}
		}
		spans, err := readSpans(data)
		if err != nil {
			return &ingest.InputError{Path: path, Err: fmt.Errorf("%s: %w", name, err)}
		}
		here := map[string]*span{}
		for _, sp := range spans {
			sp.file, sp.path = name, path
			if sp.TraceID == "" || sp.SpanID == "" {
				key, err := contentKey(sp)
				if err != nil {
					return &ingest.InputError{Path: path, Err: fmt.Errorf("%s: %s: %w", name, sp.pos, err)}
				}
				if f, ok := byContent[key]; ok {
					return &ingest.InputError{Path: path, Err: repeatedSpan(sp, f)}
				}
				if _, ok := here[key]; !ok {
					here[key] = sp
				}
				continue
			}
			key := [2]string{sp.TraceID, sp.SpanID}
			if f, ok := first[key]; ok {
				return &ingest.InputError{Path: path, Err: repeatedSpan(sp, f)}
			}
			first[key] = sp
		}
		for k, sp := range here {
			byContent[k] = sp
		}
		all = append(all, spans...)
	}
	return emit(all, opts, sink, rep)
}

// contentKey is the content of span sp (every member read, its resource
// and scope), which identifies a span without ids. Two such spans of one
// file are not compared: without ids or times, two equal spans of one
// export may be two requests.
func contentKey(sp *span) (string, error) {
	b, err := json.Marshal(sp) // every member as read (raw values)
	if err != nil {
		return "", err
	}
	// fmt prints a map's keys sorted, and a NaN json.Marshal refuses.
	return fmt.Sprintf("%s\x00%d\x00%d\x00%v\x00%s", b, sp.start.UnixNano(), sp.end.UnixNano(), sp.resource, sp.scope), nil
}

// repeatedSpan is the error of span sp whose trace and span ids (or,
// without them, whose content) the earlier span f already had.
func repeatedSpan(sp, f *span) error {
	what := fmt.Sprintf("span %q of trace %q", sp.SpanID, sp.TraceID)
	if sp.TraceID == "" || sp.SpanID == "" {
		what = fmt.Sprintf("span %q (no trace or span id), the same in every member,", sp.Name)
	}
	return fmt.Errorf("%s: %s: %s is also at %s: %s: an input given twice, or overlapping "+
		"exports? Import each span once; nothing was written", sp.file, sp.pos, what, f.file, f.pos)
}

// Import imports the sessions of one export read from r: a JSON object
// {"resourceSpans":[…]}, an array of such objects, or JSON Lines of them (as
// the collector's file exporter writes). name labels errors.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	spans, err := readSpans(data)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, sp := range spans {
		sp.file, sp.path = name, name
	}
	return emit(spans, opts, sink, rep)
}

// emit groups spans into sessions and hands each to sink; errors name the
// file of the session's first span.
func emit(spans []*span, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	for _, g := range group(spans) {
		name := g.spans[0].file
		s, err := convert(g, opts, rep)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := sink.Emit(s); err != nil {
			return fmt.Errorf("%s: session %s: %w", name, g.id, err)
		}
	}
	return nil
}

// readSpans decodes every span of data with its resource and scope.
func readSpans(data []byte) ([]*span, error) {
	var spans []*span
	// line is the number of raw's line in a JSON Lines file, else 0, and
	// lineRaw that line without its end (columns count its leading blanks).
	line, lineRaw := 0, []byte(nil)
	add := func(pos string, raw []byte) error {
		if err := isExport(raw); err != nil {
			if where := strings.TrimRight(pos, ".: "); where != "" {
				return fmt.Errorf("%s: %w", where, err)
			}
			return err
		}
		var ex export
		if err := json.Unmarshal(raw, &ex); err != nil {
			if line > 0 {
				return ingest.LineJSONError(line, lineRaw, json.Unmarshal(lineRaw, &ex))
			}
			return fmt.Errorf("%s: %w", pos, ingest.JSONError(raw, err))
		}
		for i, rs := range ex.ResourceSpans {
			res, err := attrMap(rs.Resource.Attributes)
			if err != nil {
				return fmt.Errorf("%s: resourceSpans[%d].resource: %w", pos, i, err)
			}
			for j, ss := range rs.ScopeSpans {
				for k := range ss.Spans {
					sp := &ss.Spans[k]
					sp.pos = fmt.Sprintf("%sresourceSpans[%d].scopeSpans[%d].spans[%d]", pos, i, j, k)
					if sp.attrs, err = attrMap(sp.Attributes); err != nil {
						return fmt.Errorf("%s: %w", sp.pos, err)
					}
					if sp.start, err = unixNano(sp.Start); err != nil {
						return fmt.Errorf("%s: startTimeUnixNano: %w", sp.pos, err)
					}
					if sp.end, err = unixNano(sp.End); err != nil {
						return fmt.Errorf("%s: endTimeUnixNano: %w", sp.pos, err)
					}
					if sp.end.Before(sp.start) {
						sp.end = sp.start
					}
					sp.resource = res
					sp.scope = strings.TrimSpace(ss.Scope.Name + " " + ss.Scope.Version)
					sp.seq = len(spans)
					spans = append(spans, sp)
				}
			}
		}
		return nil
	}
	switch first := ingest.FirstByte(data); {
	case first == '{' && json.Valid(data):
		if err := add("", data); err != nil {
			return nil, err
		}
		return spans, noSpans(spans)
	case first == '[' && json.Valid(data):
		var list []json.RawMessage
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, err
		}
		for i, raw := range list {
			if err := add(fmt.Sprintf("[%d].", i), raw); err != nil {
				return nil, err
			}
		}
		return spans, noSpans(spans)
	case first == 0:
		return nil, errors.New("empty file: not an OTLP trace export")
	}
	err := ingest.Lines(bytes.NewReader(data), func(n int, raw []byte) error {
		line, lineRaw = n, bytes.TrimRight(raw, " \t\r\n")
		return add(fmt.Sprintf("line %d: ", n), bytes.TrimSpace(raw))
	})
	if err != nil {
		return nil, err
	}
	return spans, noSpans(spans)
}

// isExport checks that raw is a JSON object with a "resourceSpans" key
// (issue 18.8: null, {} or a misspelt key were read as an export of no
// spans, and the import wrote 0 sessions with exit 0). A key is a name,
// not content, so the message may quote the keys found.
func isExport(raw []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return errors.New("not an OTLP trace export: null")
		}
		return nil // the typed decode reports the error
	}
	for k := range obj {
		if strings.EqualFold(k, "resourceSpans") { // as the typed decode matches it
			return nil
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, strconv.Quote(k))
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return errors.New(`not an OTLP trace export: an empty object (no "resourceSpans")`)
	}
	if len(keys) > 5 {
		keys = append(keys[:5], "…")
	}
	return fmt.Errorf(`not an OTLP trace export: no "resourceSpans" key (found %s)`, strings.Join(keys, ", "))
}

// noSpans refuses an export that holds no span at all: it would import 0
// sessions.
func noSpans(spans []*span) error {
	if len(spans) == 0 {
		return errors.New(`the export holds no spans ("resourceSpans" lists none): 0 sessions to import`)
	}
	return nil
}

// sessionSpans are the spans of one session, in time order.
type sessionSpans struct {
	id    string
	spans []*span
}

// group puts spans into sessions: by gen_ai.conversation.id when a span of
// the trace carries one (that of the trace's earliest such span), else by
// trace id; sessions in order of first span, then of id. Nothing depends
// on the order the files were given in (TestOTelImportIndependentOfFileOrder):
// spans of every file are grouped together, and the first conversation id
// read and first-appearance order decided before.
func group(spans []*span) []*sessionSpans {
	convOfTrace := map[string]string{}
	convSpan := map[string]*span{}
	for _, sp := range spans {
		c := str(sp.attrs, "gen_ai.conversation.id")
		if c == "" {
			continue
		}
		if f, ok := convSpan[sp.TraceID]; !ok || spanBefore(sp, f) || (!spanBefore(f, sp) && c < convOfTrace[sp.TraceID]) {
			convSpan[sp.TraceID], convOfTrace[sp.TraceID] = sp, c
		}
	}
	byID := map[string]*sessionSpans{}
	var out []*sessionSpans
	for _, sp := range spans {
		id := str(sp.attrs, "gen_ai.conversation.id")
		if id == "" {
			id = convOfTrace[sp.TraceID]
		}
		if id == "" {
			id = sp.TraceID
		}
		if id == "" {
			id = "trace"
		}
		g := byID[id]
		if g == nil {
			g = &sessionSpans{id: id}
			byID[id] = g
			out = append(out, g)
		}
		g.spans = append(g.spans, sp)
	}
	for _, g := range out {
		sort.Slice(g.spans, func(i, j int) bool { return spanOrder(g.spans[i], g.spans[j]) })
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].spans[0], out[j].spans[0]
		if !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		return out[i].id < out[j].id
	})
	return out
}

// spanBefore orders spans by start, end and span id.
func spanBefore(a, b *span) bool {
	if !a.start.Equal(b.start) {
		return a.start.Before(b.start)
	}
	if !a.end.Equal(b.end) {
		return a.end.Before(b.end)
	}
	return a.SpanID < b.SpanID
}

// spanOrder is the order of a session's spans: spanBefore, then (spans
// without ids) trace id, name, and the file (its path as given, which
// does not depend on the order of the files) and place in it.
func spanOrder(a, b *span) bool {
	if spanBefore(a, b) || spanBefore(b, a) {
		return spanBefore(a, b)
	}
	if a.TraceID != b.TraceID {
		return a.TraceID < b.TraceID
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	if a.path != b.path {
		return a.path < b.path
	}
	return a.seq < b.seq
}
