package validation

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL names the one in-memory resource of each compilation.
const schemaURL = "mem:///schema.json"

// compiled is one distinct schema: its decoded document (for shaping) and
// its compiled form (for validating), each with the error that prevented
// it.
type compiled struct {
	once   sync.Once
	doc    any
	docErr error
	sch    *jsonschema.Schema
	schErr error
}

// memo compiles each distinct schema (by SHA-256 of its bytes) once.
type memo struct {
	limits Limits
	mu     sync.Mutex
	m      map[[32]byte]*compiled
}

func newMemo(l Limits) *memo { return &memo{limits: l, m: map[[32]byte]*compiled{}} }

// get returns the compiled form of schema, compiling it on first use.
func (m *memo) get(schema []byte) *compiled {
	key := sha256.Sum256(schema)
	m.mu.Lock()
	c := m.m[key]
	if c == nil {
		c = &compiled{}
		if len(m.m) < m.limits.MaxMemo {
			m.m[key] = c
		}
	}
	m.mu.Unlock()
	c.once.Do(func() { c.build(schema, m.limits) })
	return c
}

// size reports how many schemas are kept.
func (m *memo) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}

func (c *compiled) build(schema []byte, l Limits) {
	if err := l.checkDoc("schema", schema); err != nil {
		c.docErr, c.schErr = err, err
		return
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		c.docErr = fmt.Errorf("schema: %w", err)
		c.schErr = c.docErr
		return
	}
	c.doc = doc
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.UseLoader(noLoader{})
	comp.UseRegexpEngine(lenientRegexp)
	if err := comp.AddResource(schemaURL, doc); err != nil {
		c.schErr = fmt.Errorf("schema: %w", err)
		return
	}
	sch, err := comp.Compile(schemaURL)
	if err != nil {
		c.schErr = fmt.Errorf("compile schema: %w", err)
		return
	}
	c.sch = sch
}

// noLoader refuses every external reference: a schema is validated on its
// own, never by reading files or the network. (The draft meta-schemas are
// built into the library and need no loader.)
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("external references are not followed")
}

// lenientRegexp compiles "pattern" and "patternProperties" with Go's RE2.
// A pattern RE2 cannot compile (look-around, back-references: common in
// ECMAScript patterns) is not asserted: it matches everything.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return matchAll(s), nil
	}
	return re, nil
}

type matchAll string

func (m matchAll) String() string        { return string(m) }
func (matchAll) MatchString(string) bool { return true }
