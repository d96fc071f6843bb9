// Package schema holds the JSON Schema of defersim's trace format v1 (one
// event, that is one line of a trace file). docs/trace-format.md is the
// specification it encodes; rules that span lines are not in the schema.
package schema

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// URL is the schema's $id.
const URL = "https://github.com/defersim/defersim/traces/schema/trace-v1.schema.json"

//go:embed trace-v1.schema.json
var schemaText string

// JSON returns the schema document.
func JSON() []byte { return []byte(schemaText) }

// Compile compiles the schema, with "format" asserted (so "t" must be an
// RFC 3339 date-time).
func Compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schemaText))
	if err != nil {
		return nil, fmt.Errorf("parse trace schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(URL, doc); err != nil {
		return nil, fmt.Errorf("add trace schema: %w", err)
	}
	sch, err := c.Compile(URL)
	if err != nil {
		return nil, fmt.Errorf("compile trace schema: %w", err)
	}
	return sch, nil
}
