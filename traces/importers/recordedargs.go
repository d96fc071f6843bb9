package importers

import (
	"bytes"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/toolschema"
	"github.com/defersim/defersim/validation"
)

// checkArgs checks the recorded arguments of ev, a call of a tool of st
// at version, against the tool's input schema and counts a call the
// schema rejects in the report (Report.RejectArgs). Only exact schemas
// are checked (an approximate one is known to differ), only arguments
// that are a JSON object (others are counted where they are kept as a
// string), and a schema that cannot check calls (validation.SchemaCheck)
// is left to the catalog notes. The engine takes every recorded call as
// valid for the schema its model saw, so nothing later says that the
// sessions ran with another schema: a call whose server accepted
// arguments this one rejects is the sign.
func (p *pipeline) checkArgs(ev *traces.Event, st *serverTools, version string) {
	if len(bytes.TrimSpace(ev.Args)) == 0 || bytes.TrimSpace(ev.Args)[0] != '{' {
		return
	}
	if _, approximate := st.fidelity[ev.Tool]; approximate {
		return
	}
	schema := toolSchema(st, ev.Tool)
	if schema == nil {
		return
	}
	if p.validator == nil {
		p.validator = validation.New()
	}
	f, err := p.validator.Validate(schema, schema, ev.Args)
	if err != nil || f.Class == "" || f.Class == validation.ClassSchemaInvalid {
		return
	}
	p.rep.RejectArgs(ev.Server, version, ev.Tool, f.Class, f.Instance, f.Keyword, ev.Status == "ok")
}

// toolSchema is the input schema of st's tool named name (nil: none).
func toolSchema(st *serverTools, name string) []byte {
	for i := range st.tools {
		if t := &st.tools[i]; t.Name == name {
			if f, _ := toolschema.FidelityOf(t); f != toolschema.Exact {
				return nil
			}
			return t.InputSchema
		}
	}
	return nil
}
