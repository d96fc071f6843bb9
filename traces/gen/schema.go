package gen

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// schema is a JSON Schema node in the small subset the generator writes.
// It keeps properties in insertion order so output is deterministic and
// reads like a hand-written schema.
type schema struct {
	Dialect     string // "$schema", root only
	Type        string
	Description string
	Enum        []string
	Format      string
	Min, Max    *float64
	MinLength   int
	MaxLength   int
	Items       *schema
	MinItems    int
	MaxItems    int
	Unique      bool
	Props       []prop
	Required    []string
	// Closed writes "additionalProperties": false.
	Closed bool
	// Values writes "additionalProperties": <schema> (a string map).
	Values *schema
	// Default is written as "default" when non-nil.
	Default any
}

type prop struct {
	Name   string
	Schema *schema
}

func ptr(f float64) *float64 { return &f }

// prop returns the named property's schema, or nil.
func (s *schema) prop(name string) *schema {
	for _, p := range s.Props {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// isRequired reports whether name is in the required list.
func (s *schema) isRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// clone returns a deep copy.
func (s *schema) clone() *schema {
	if s == nil {
		return nil
	}
	c := *s
	c.Enum = append([]string(nil), s.Enum...)
	c.Required = append([]string(nil), s.Required...)
	c.Items = s.Items.clone()
	c.Values = s.Values.clone()
	if s.Min != nil {
		c.Min = ptr(*s.Min)
	}
	if s.Max != nil {
		c.Max = ptr(*s.Max)
	}
	c.Props = make([]prop, len(s.Props))
	for i, p := range s.Props {
		c.Props[i] = prop{Name: p.Name, Schema: p.Schema.clone()}
	}
	if len(s.Props) == 0 {
		c.Props = nil
	}
	return &c
}

// MarshalJSON writes the schema with a fixed key order.
func (s *schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	s.write(&b)
	return b.Bytes(), nil
}

func (s *schema) write(b *bytes.Buffer) {
	w := objWriter{b: b}
	b.WriteByte('{')
	if s.Type != "" {
		w.key("type")
		writeString(b, s.Type)
	}
	if s.Description != "" {
		w.key("description")
		writeString(b, s.Description)
	}
	if s.Enum != nil {
		w.key("enum")
		b.WriteByte('[')
		for i, e := range s.Enum {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, e)
		}
		b.WriteByte(']')
	}
	if s.Format != "" {
		w.key("format")
		writeString(b, s.Format)
	}
	if s.Min != nil {
		w.key("minimum")
		b.WriteString(strconv.FormatFloat(*s.Min, 'g', -1, 64))
	}
	if s.Max != nil {
		w.key("maximum")
		b.WriteString(strconv.FormatFloat(*s.Max, 'g', -1, 64))
	}
	if s.MinLength > 0 {
		w.key("minLength")
		b.WriteString(strconv.Itoa(s.MinLength))
	}
	if s.MaxLength > 0 {
		w.key("maxLength")
		b.WriteString(strconv.Itoa(s.MaxLength))
	}
	if s.Items != nil {
		w.key("items")
		s.Items.write(b)
	}
	if s.MinItems > 0 {
		w.key("minItems")
		b.WriteString(strconv.Itoa(s.MinItems))
	}
	if s.MaxItems > 0 {
		w.key("maxItems")
		b.WriteString(strconv.Itoa(s.MaxItems))
	}
	if s.Unique {
		w.key("uniqueItems")
		b.WriteString("true")
	}
	if s.Type == "object" && (s.Props != nil || s.Values == nil) {
		w.key("properties")
		b.WriteByte('{')
		for i, p := range s.Props {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, p.Name)
			b.WriteByte(':')
			p.Schema.write(b)
		}
		b.WriteByte('}')
	}
	if len(s.Required) > 0 {
		w.key("required")
		b.WriteByte('[')
		for i, r := range s.Required {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, r)
		}
		b.WriteByte(']')
	}
	if s.Values != nil {
		w.key("additionalProperties")
		s.Values.write(b)
	} else if s.Closed {
		w.key("additionalProperties")
		b.WriteString("false")
	}
	if s.Default != nil {
		w.key("default")
		d, _ := json.Marshal(s.Default)
		b.Write(d)
	}
	if s.Dialect != "" {
		w.key("$schema")
		writeString(b, s.Dialect)
	}
	b.WriteByte('}')
}

type objWriter struct {
	b *bytes.Buffer
	n int
}

func (w *objWriter) key(k string) {
	if w.n > 0 {
		w.b.WriteByte(',')
	}
	w.n++
	writeString(w.b, k)
	w.b.WriteByte(':')
}

// writeString writes s as a JSON string without HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
}
