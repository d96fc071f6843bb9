package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// indentJSON re-indents compact JSON with two spaces, keeping the order of
// keys, but writes arrays of scalars (numbers, strings, booleans, null) on
// one line, so the quantile grids stay readable. The output ends with a
// newline.
func indentJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	if err := writeValue(&out, dec, 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("indent json: trailing data")
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func writeValue(out *bytes.Buffer, dec *json.Decoder, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("indent json: %w", err)
	}
	return writeToken(out, dec, tok, depth)
}

func writeToken(out *bytes.Buffer, dec *json.Decoder, tok json.Token, depth int) error {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return writeObject(out, dec, depth)
		case '[':
			return writeArray(out, dec, depth)
		}
		return fmt.Errorf("indent json: unexpected %q", t)
	default:
		return writeScalar(out, t)
	}
}

func writeObject(out *bytes.Buffer, dec *json.Decoder, depth int) error {
	out.WriteByte('{')
	n := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fmt.Errorf("indent json: %w", err)
		}
		if n > 0 {
			out.WriteByte(',')
		}
		newline(out, depth+1)
		if err := writeScalar(out, key); err != nil {
			return err
		}
		out.WriteString(": ")
		if err := writeValue(out, dec, depth+1); err != nil {
			return err
		}
		n++
	}
	if _, err := dec.Token(); err != nil { // '}'
		return fmt.Errorf("indent json: %w", err)
	}
	if n > 0 {
		newline(out, depth)
	}
	out.WriteByte('}')
	return nil
}

func writeArray(out *bytes.Buffer, dec *json.Decoder, depth int) error {
	var toks []json.Token
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("indent json: %w", err)
		}
		if _, nested := tok.(json.Delim); nested {
			// A composite array: one element per line.
			out.WriteByte('[')
			for i, s := range toks {
				if i > 0 {
					out.WriteByte(',')
				}
				newline(out, depth+1)
				if err := writeScalar(out, s); err != nil {
					return err
				}
			}
			if len(toks) > 0 {
				out.WriteByte(',')
			}
			newline(out, depth+1)
			if err := writeToken(out, dec, tok, depth+1); err != nil {
				return err
			}
			for dec.More() {
				out.WriteByte(',')
				newline(out, depth+1)
				if err := writeValue(out, dec, depth+1); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // ']'
				return fmt.Errorf("indent json: %w", err)
			}
			newline(out, depth)
			out.WriteByte(']')
			return nil
		}
		toks = append(toks, tok)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return fmt.Errorf("indent json: %w", err)
	}
	out.WriteByte('[')
	for i, s := range toks {
		if i > 0 {
			out.WriteString(", ")
		}
		if err := writeScalar(out, s); err != nil {
			return err
		}
	}
	out.WriteByte(']')
	return nil
}

func writeScalar(out *bytes.Buffer, tok json.Token) error {
	switch v := tok.(type) {
	case json.Number:
		out.WriteString(v.String())
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("indent json: %w", err)
		}
		out.WriteString(strings.TrimSuffix(b.String(), "\n"))
	case bool:
		if v {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	default:
		return fmt.Errorf("indent json: unexpected token %v", tok)
	}
	return nil
}

func newline(out *bytes.Buffer, depth int) {
	out.WriteByte('\n')
	for range depth {
		out.WriteString("  ")
	}
}

// flattenJSON lists the scalar leaves of a JSON object in document order as
// "dotted.path=value" (arrays of scalars joined by commas), skipping the
// top-level keys in skip.
func flattenJSON(data []byte, skip ...string) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []string
	var walk func(path string, tok json.Token) error
	walk = func(path string, tok json.Token) error {
		d, ok := tok.(json.Delim)
		if !ok {
			out = append(out, path+"="+scalarText(tok))
			return nil
		}
		switch d {
		case '{':
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				v, err := dec.Token()
				if err != nil {
					return err
				}
				if path == "" && slices.Contains(skip, key) {
					if err := skipValue(dec, v); err != nil {
						return err
					}
					continue
				}
				p := key
				if path != "" {
					p = path + "." + key
				}
				if err := walk(p, v); err != nil {
					return err
				}
			}
		case '[':
			var items []string
			for i := 0; dec.More(); i++ {
				v, err := dec.Token()
				if err != nil {
					return err
				}
				if _, nested := v.(json.Delim); nested {
					if err := walk(fmt.Sprintf("%s[%d]", path, i), v); err != nil {
						return err
					}
					continue
				}
				items = append(items, scalarText(v))
			}
			if len(items) > 0 {
				out = append(out, path+"="+strings.Join(items, ","))
			}
		}
		_, err := dec.Token() // closing delimiter
		return err
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("flatten json: %w", err)
	}
	if err := walk("", tok); err != nil {
		return nil, fmt.Errorf("flatten json: %w", err)
	}
	return out, nil
}

// skipValue consumes the rest of a value whose first token is tok.
func skipValue(dec *json.Decoder, tok json.Token) error {
	if _, ok := tok.(json.Delim); !ok {
		return nil
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

func scalarText(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return v
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return fmtExact(f)
		}
		return v.String()
	case bool:
		return fmt.Sprint(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}
