package toolschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// Convert turns one tool definition (OpenAI, Anthropic, MCP or tau2 listing
// shape) into an MCP tool. ok is false for entries that are not schema-bearing
// tools (an Anthropic server tool such as a web search or tool search tool);
// they are counted in dropped. path prefixes the dropped keys.
func Convert(raw json.RawMessage, path string, dropped Dropped) (t Tool, ok bool, err error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Tool{}, false, fmt.Errorf("tool definition is not an object: %w", err)
	}
	if m == nil {
		return Tool{}, false, errors.New("tool definition is null")
	}
	if fn, ok := m["function"]; ok && !isNull(fn) {
		// OpenAI chat-completions tool: {"type":"function","function":{…}}.
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(fn, &inner); err != nil || inner == nil {
			return Tool{}, false, errors.New("function: not an object")
		}
		for _, k := range sortedKeys(m) {
			if k != "function" && k != "type" {
				dropped.add(path + "." + k)
			}
		}
		m = inner
		path += ".function"
	} else if typ := stringMember(m, "type"); typ != "" && typ != "function" && typ != "custom" {
		if _, hasParams := m["parameters"]; !hasParams || !isArray(m["parameters"]) {
			// A provider-side tool with a type of its own carries no schema.
			dropped.add(path + " (type " + typ + ", no schema)")
			return Tool{}, false, nil
		}
	}
	if err := json.Unmarshal(orNull(m["name"]), &t.Name); err != nil || t.Name == "" {
		return Tool{}, false, errors.New("tool has no name")
	}
	for _, k := range sortedKeys(m) {
		v := m[k]
		var err error
		switch k {
		case "name":
		case "type":
			// "function"/"custom", or the tau2 listing's READ/WRITE kind.
			if s := stringMember(m, "type"); s != "function" && s != "custom" {
				dropped.add(path + ".type")
			}
		case "title":
			err = json.Unmarshal(v, &t.Title)
		case "description":
			if !isNull(v) {
				err = json.Unmarshal(v, &t.Description)
			}
		case "inputSchema", "input_schema":
			t.InputSchema, err = compactObject(v)
		case "parameters":
			if isArray(v) {
				t.InputSchema, err = paramListSchema(v)
			} else {
				t.InputSchema, err = compactObject(v)
			}
		case "outputSchema":
			t.OutputSchema, err = compactObject(v)
		case "annotations":
			t.Annotations, err = compact(v)
		case "execution":
			t.Execution, err = compact(v)
		case "icons":
			t.Icons, err = compact(v)
		case "_meta":
			t.Meta, err = compact(v)
		default:
			dropped.add(path + "." + k)
		}
		if err != nil {
			return Tool{}, false, fmt.Errorf("tool %q: %s: %w", t.Name, k, err)
		}
	}
	if t.InputSchema == nil {
		dropped.add(path + " (no input schema: wrote {\"type\":\"object\"})")
		t.InputSchema = emptySchema
	}
	return t, true, nil
}

// param is one entry of the tau2 leaderboard's parameter list.
type param struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// paramListSchema builds a JSON Schema object from a parameter list.
func paramListSchema(raw json.RawMessage) (json.RawMessage, error) {
	var params []param
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, p := range params {
		if p.Name == "" {
			return nil, fmt.Errorf("parameter %d has no name", i)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		prop := map[string]string{}
		if p.Type != "" {
			prop["type"] = p.Type
		}
		if p.Description != "" {
			prop["description"] = p.Description
		}
		name, _ := json.Marshal(p.Name)
		val, _ := json.Marshal(prop)
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	b.WriteString(`}`)
	if len(required) > 0 {
		req, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(req)
	}
	b.WriteString(`}`)
	return json.RawMessage(b.Bytes()), nil
}

func compact(v json.RawMessage) (json.RawMessage, error) {
	if isNull(v) {
		return nil, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return nil, err
	}
	return json.RawMessage(b.Bytes()), nil
}

func compactObject(v json.RawMessage) (json.RawMessage, error) {
	if isNull(v) {
		return nil, nil
	}
	t := bytes.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return nil, errors.New("schema is not a JSON object")
	}
	return compact(v)
}

func isArray(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) > 0 && t[0] == '['
}

func orNull(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}

func stringMember(m map[string]json.RawMessage, key string) string {
	var s string
	if v, ok := m[key]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
