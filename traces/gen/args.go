package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// argMaker writes tool-call arguments that are valid against a schema.
type argMaker struct {
	r   *rng
	dom *domain
	// optional is the probability an optional property is given.
	optional float64
}

// args returns the JSON arguments for a call of t.
func (m *argMaker) args(t *toolDef) []byte {
	var b bytes.Buffer
	m.object(&b, t.schema, t, 0)
	return b.Bytes()
}

func (m *argMaker) object(b *bytes.Buffer, s *schema, t *toolDef, depth int) {
	w := objWriter{b: b}
	b.WriteByte('{')
	if s.Values != nil && len(s.Props) == 0 {
		n := m.r.between(1, 2)
		for i := 0; i < n; i++ {
			w.key(fmt.Sprintf("%s_%d", pick(m.r, []string{"source", "team", "ref", "note"}), i+1))
			m.value(b, s.Values, "", t, depth+1)
		}
		b.WriteByte('}')
		return
	}
	for _, p := range s.Props {
		if !s.isRequired(p.Name) && !m.r.chance(m.optional) {
			continue
		}
		w.key(p.Name)
		m.value(b, p.Schema, p.Name, t, depth+1)
	}
	b.WriteByte('}')
}

func (m *argMaker) value(b *bytes.Buffer, s *schema, name string, t *toolDef, depth int) {
	r := m.r
	switch s.Type {
	case "object":
		m.object(b, s, t, depth)
	case "array":
		n := r.between(1, 3)
		if s.MinItems > n {
			n = s.MinItems
		}
		if s.MaxItems > 0 && n > s.MaxItems {
			n = s.MaxItems
		}
		if s.Items != nil && len(s.Items.Enum) > 0 && n > len(s.Items.Enum) {
			n = len(s.Items.Enum)
		}
		b.WriteByte('[')
		if s.Items != nil && len(s.Items.Enum) > 0 {
			idx := make([]int, len(s.Items.Enum))
			for i := range idx {
				idx[i] = i
			}
			shuffle(r, idx)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				writeString(b, s.Items.Enum[idx[i]])
			}
		} else {
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if s.Items == nil {
					writeString(b, pick(r, m.dom.values))
				} else {
					m.value(b, s.Items, name, t, depth+1)
				}
			}
		}
		b.WriteByte(']')
	case "integer":
		lo, hi := 0, 1000
		if s.Min != nil {
			lo = int(*s.Min)
		}
		if s.Max != nil {
			hi = int(*s.Max)
		}
		if hi > lo+50 {
			hi = lo + 50
		}
		b.WriteString(strconv.Itoa(r.between(lo, hi)))
	case "number":
		x := float64(r.between(0, 10000)) / 100
		if s.Max != nil && x > *s.Max {
			x = *s.Max * r.float64()
			x = float64(int(x*100)) / 100
		}
		if s.Min != nil && x < *s.Min {
			x = *s.Min
		}
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case "boolean":
		if r.chance(0.5) {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		writeString(b, m.str(s, name, t))
	}
}

// str makes a string value that satisfies s (enum, format, length).
func (m *argMaker) str(s *schema, name string, t *toolDef) string {
	r := m.r
	if len(s.Enum) > 0 {
		return pick(r, s.Enum)
	}
	var v string
	lname := strings.ToLower(name)
	switch {
	case s.Format == "date":
		v = fmt.Sprintf("2026-%02d-%02d", r.between(1, 12), r.between(1, 28))
	case s.Format == "date-time":
		v = fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00Z", r.between(1, 12), r.between(1, 28), r.between(0, 23), r.between(0, 59))
	case strings.Contains(lname, "url"):
		v = "https://example.com/" + strings.ReplaceAll(pick(r, m.dom.values), " ", "-")
	case strings.Contains(lname, "path"):
		v = "work/" + strings.ReplaceAll(pick(r, m.dom.values), " ", "_") + ".md"
	case strings.Contains(lname, "timezone"):
		v = pick(r, []string{"Europe/Paris", "America/Denver", "Asia/Tokyo", "UTC"})
	case strings.HasSuffix(lname, "id") || lname == "ref" || s.MinLength > 0:
		p := strings.ReplaceAll(t.noun.one, "_", "")
		if len(p) > 3 {
			p = p[:3]
		}
		v = fmt.Sprintf("%s_%05d", p, r.intn(100000))
	default:
		v = pick(r, m.dom.values)
	}
	if s.MaxLength > 0 && len(v) > s.MaxLength {
		v = v[:s.MaxLength]
	}
	if len(v) < s.MinLength {
		v += strings.Repeat("x", s.MinLength-len(v))
	}
	return v
}
