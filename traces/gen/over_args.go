package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/validation"
)

// overTool is one real tool schema (a distinct fingerprint of a series'
// tool) with what calls to it need: example arguments and a validator.
type overTool struct {
	name  string
	words []string // the name split into lowercase words, for user text
	// req and all are validation.Example's instances (required properties
	// only; every property), decoded; optional lists the top-level members
	// of all that req lacks, required those of req, both sorted. reqRaw is
	// req as JSON.
	req, all map[string]any
	required []string
	optional []string
	reqRaw   json.RawMessage
	// props are the top-level property schemas (for enum choices).
	props map[string]any
	// sch validates with formats asserted; nil when the schema does not
	// compile that way (then Example's instances are used unchanged).
	sch *jsonschema.Schema
	// unbuildable says why no arguments valid against the schema could be
	// built ("" when they can): such a tool is never called (NewOver).
	unbuildable string
}

// newOverTool prepares the argument builder of t (a tool of series key).
func newOverTool(key string, t *catalog.Tool) *overTool {
	ot := &overTool{name: t.Name, words: nameWords(t.Name)}
	schema := t.InputSchema
	req, exErr := validation.Example(schema, false)
	if exErr == nil {
		ot.reqRaw = req
		ot.req = decodeObject(req)
	}
	if ot.reqRaw == nil {
		ot.reqRaw = json.RawMessage(`{}`)
	}
	if all, err := validation.Example(schema, true); err == nil {
		ot.all = decodeObject(all)
	}
	for k := range ot.req {
		ot.required = append(ot.required, k)
	}
	for k := range ot.all {
		if _, ok := ot.req[k]; !ok {
			ot.optional = append(ot.optional, k)
		}
	}
	slices.Sort(ot.required)
	slices.Sort(ot.optional)
	if m, ok := decodeAny(schema).(map[string]any); ok {
		ot.props, _ = m["properties"].(map[string]any)
	}
	ot.sch, _ = compileAsserting(key+"/"+t.Name, schema)
	switch {
	case exErr != nil:
		ot.unbuildable = exErr.Error()
	case ot.sch != nil:
		if err := ot.validate(ot.reqRaw); err != nil {
			ot.unbuildable = "its example arguments " + string(ot.reqRaw) + " fail the schema with formats asserted: " + oneLine(err)
		}
	}
	return ot
}

// oneLine is err's message on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// args returns the arguments of one call: the required members, each
// optional member with probability optional, free-text strings, numbers,
// booleans and enums varied; the result is checked against the schema and
// falls back to fewer variations, then to Example's required-only instance.
func (t *overTool) args(r *rng, dom *domain, optional float64) []byte {
	if t.req == nil {
		return t.reqRaw
	}
	m := make(map[string]any, len(t.req)+len(t.optional))
	for k, v := range t.req {
		m[k] = v
	}
	for _, k := range t.optional {
		if r.chance(optional) {
			m[k] = t.all[k]
		}
	}
	plain, err := json.Marshal(m)
	if err != nil || !t.valid(plain) {
		return t.reqRaw
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		m[k] = t.vary(r, dom, k, m[k])
	}
	if varied, err := json.Marshal(m); err == nil && t.valid(varied) {
		return varied
	}
	return plain
}

// vary returns another plausible value for the top-level member k, or v.
func (t *overTool) vary(r *rng, dom *domain, k string, v any) any {
	if ps, ok := t.props[k].(map[string]any); ok {
		if e, ok := ps["enum"].([]any); ok && len(e) > 1 {
			return e[r.intn(len(e))]
		}
	}
	switch x := v.(type) {
	case string:
		if x == "" {
			return freeText(r, dom, k)
		}
	case json.Number:
		if x.String() == "0" {
			return json.Number(fmt.Sprint(r.between(1, 20)))
		}
	case bool:
		return r.chance(0.5)
	}
	return v
}

// freeText is a short value for a free-text string member called name.
func freeText(r *rng, dom *domain, name string) string {
	n := strings.ToLower(name)
	w := pick(r, dom.values)
	slug := strings.NewReplacer(" ", "-", ":", "", "/", "-").Replace(strings.ToLower(w))
	switch {
	case strings.Contains(n, "url") || strings.Contains(n, "uri") || strings.Contains(n, "link"):
		return "https://example.com/" + slug
	case strings.Contains(n, "path") || strings.Contains(n, "file") || strings.Contains(n, "dir"):
		return "work/" + slug + pick(r, []string{".md", ".txt", ".json", "/"})
	case strings.HasSuffix(n, "id"):
		return fmt.Sprintf("%s-%04d", slug, r.intn(10000))
	}
	return w
}

// valid reports whether args satisfy the tool's schema (true when the
// schema could not be compiled with formats asserted).
func (t *overTool) valid(args []byte) bool {
	return t.validate(args) == nil
}

// validate checks args against the tool's schema (nil when the schema
// could not be compiled with formats asserted).
func (t *overTool) validate(args []byte) error {
	if t.sch == nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return err
	}
	return t.sch.Validate(inst)
}

// compileAsserting compiles schema (draft 2020-12 unless it says otherwise)
// with formats asserted, no external references and Go regular
// expressions, as the generator's tests validate arguments.
func compileAsserting(name string, schema json.RawMessage) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, errors.New("no schema")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(refuseLoader{})
	url := "mem:///" + notURLSafe.ReplaceAllString(name, "_") + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// notURLSafe matches runs of characters kept out of resource URLs.
var notURLSafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// refuseLoader refuses every external reference.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %s not followed", url)
}

// decodeObject decodes a JSON object with numbers kept as json.Number (nil
// when it is not an object).
func decodeObject(b []byte) map[string]any {
	m, _ := decodeAny(b).(map[string]any)
	return m
}

func decodeAny(b []byte) any {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	return v
}

// nameWords splits a tool name into lowercase words at '_', '-', '.',
// spaces and lower-to-upper case changes ("browser_navigate",
// "resolve-library-id", "getPage" → "get page").
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, c := range name {
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ' || c == '/' || c == ':':
			flush()
			prevLower = false
			continue
		case c >= 'A' && c <= 'Z' && prevLower:
			flush()
		}
		cur = append(cur, c)
		prevLower = c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	flush()
	return words
}
