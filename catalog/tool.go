package catalog

import "fmt"

// NewTool parses one MCP tool object (as served in a tools/list result) and
// fills every derived field: Raw (compact, source key order), Fingerprint,
// Wire and WireOpenAI. name must be a non-empty string; description, when
// present, a string; inputSchema an object, or null or absent (read as
// {"type":"object"}, with a Warning); annotations, when present, an object.
func NewTool(raw []byte) (*Tool, error) {
	v, err := parseValue(raw)
	if err != nil {
		return nil, fmt.Errorf("tool: %w", err)
	}
	t, err := toolFromValue(v)
	if err != nil {
		return nil, fmt.Errorf("tool: %w", err)
	}
	return t, nil
}

func toolFromValue(v *value) (*Tool, error) {
	if v.kind != kObject {
		return nil, fmt.Errorf("not a JSON object")
	}
	nameV := v.get("name")
	if nameV == nil {
		return nil, fmt.Errorf("missing field \"name\"")
	}
	if nameV.kind != kString || nameV.text == "" {
		return nil, fmt.Errorf("field \"name\" must be a non-empty string")
	}
	t := &Tool{Name: nameV.text}
	descV := v.get("description")
	if descV != nil && descV.kind != kString && descV.kind != kNull {
		return nil, fmt.Errorf("tool %q: field \"description\" must be a string", t.Name)
	}
	if descV != nil && descV.kind == kString {
		t.Description = descV.text
	}
	schemaV := v.get("inputSchema")
	switch {
	case schemaV == nil:
		t.Warning, t.WarningKind = `no inputSchema; read as {"type":"object"}`, NoteSchemaMissing
	case schemaV.kind == kNull:
		t.Warning, t.WarningKind = `inputSchema is null; read as {"type":"object"}`, NoteSchemaNull
		schemaV = nil
	case schemaV.kind != kObject:
		return nil, fmt.Errorf("tool %q: field \"inputSchema\" must be an object", t.Name)
	case !objectTyped(schemaV.get("type")):
		return nil, fmt.Errorf("tool %q: inputSchema type %s: a tool's arguments are a JSON object (want type \"object\", or no type)", t.Name, quoted(schemaV.get("type")))
	default:
		t.InputSchema = schemaV.appendCompact(nil)
	}
	if annV := v.get("annotations"); annV != nil {
		if annV.kind != kObject && annV.kind != kNull {
			return nil, fmt.Errorf("tool %q: field \"annotations\" must be an object", t.Name)
		}
		t.Annotations = annV.appendCompact(nil)
	}
	if meta := v.get("_meta"); meta != nil && meta.kind == kObject {
		if f := meta.get(MetaSchemaFidelity); f != nil && f.kind == kString {
			t.SchemaFidelity = f.text
		}
	}
	t.Raw = v.appendCompact(nil)
	t.WireMCP = t.Raw
	if icons := v.get("icons"); icons != nil {
		t.WireMCP = withoutMember(v, "icons").appendCompact(nil)
	}
	t.ServedFingerprint = hexSum(v.canonical())
	t.ModelFingerprint = hexSum(modelVisible(v, schemaV).canonical())
	t.Fingerprint = t.ModelFingerprint
	t.Wire = wireAnthropic(t.Name, descV, schemaV)
	t.WireOpenAI = wireOpenAI(t.Name, descV, schemaV)
	return t, nil
}

// objectTyped reports whether an input schema's "type" (nil when absent)
// allows an object: absent, "object", or a list holding "object". A tool is
// always called with an object of arguments, so a schema typed otherwise
// (MCP requires "object") can validate no call.
func objectTyped(typ *value) bool {
	switch {
	case typ == nil:
		return true
	case typ.kind == kString:
		return typ.text == "object"
	case typ.kind == kArray:
		for _, it := range typ.items {
			if it.kind == kString && it.text == "object" {
				return true
			}
		}
	}
	return false
}

// emptySchema stands in for a missing inputSchema in the wire forms.
var emptySchema = &value{kind: kObject, members: []member{{key: "type", val: &value{kind: kString, text: "object"}}}}

// wireAnthropic builds {"name":…,"description":…,"input_schema":…}.
// description is left out when the tool has none (absent or null); the
// schema is compact in the order served, {"type":"object"} when absent.
func wireAnthropic(name string, desc, schema *value) []byte {
	b := append([]byte(nil), `{"name":`...)
	b = appendString(b, name)
	if desc != nil && desc.kind == kString {
		b = append(b, `,"description":`...)
		b = appendString(b, desc.text)
	}
	b = append(b, `,"input_schema":`...)
	if schema == nil {
		schema = emptySchema
	}
	b = schema.appendCompact(b)
	return append(b, '}')
}

// wireOpenAI builds {"type":"function","function":{"name":…,"description":…,"parameters":…}}.
func wireOpenAI(name string, desc, schema *value) []byte {
	b := append([]byte(nil), `{"type":"function","function":{"name":`...)
	b = appendString(b, name)
	if desc != nil && desc.kind == kString {
		b = append(b, `,"description":`...)
		b = appendString(b, desc.text)
	}
	b = append(b, `,"parameters":`...)
	if schema == nil {
		schema = emptySchema
	}
	b = schema.appendCompact(b)
	return append(b, "}}"...)
}

// withoutMember returns object v without its member key.
func withoutMember(v *value, key string) *value {
	out := &value{kind: kObject}
	for _, m := range v.members {
		if m.key != key {
			out.members = append(out.members, m)
		}
	}
	return out
}

// WireForm names which bytes of a tool are counted.
type WireForm string

// Wire forms a tool can be counted in.
const (
	// FormAnthropic is Tool.Wire: {"name","description","input_schema"}.
	FormAnthropic WireForm = "anthropic"
	// FormOpenAI is Tool.WireOpenAI: {"type":"function","function":{…}}.
	FormOpenAI WireForm = "openai"
	// FormMCP is Tool.WireMCP: the tool object as served, compact, without
	// its icons (images a model never sees).
	FormMCP WireForm = "mcp"
)

// ParseWireForm accepts "anthropic", "openai" or "mcp".
func ParseWireForm(s string) (WireForm, error) {
	switch f := WireForm(s); f {
	case FormAnthropic, FormOpenAI, FormMCP:
		return f, nil
	}
	return "", fmt.Errorf("unknown wire form %q (want anthropic, openai or mcp)", s)
}

// Bytes returns the tool's bytes in form (Wire for an unknown form).
func (t *Tool) Bytes(form WireForm) []byte {
	switch form {
	case FormOpenAI:
		return t.WireOpenAI
	case FormMCP:
		return t.WireMCP
	}
	return t.Wire
}
