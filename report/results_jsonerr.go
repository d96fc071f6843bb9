package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/defersim/defersim/internal/jsonpos"
)

// ResultsJSONError turns an encoding/json error about results.json content
// data into one a reader can act on: where (line and column) and, for a
// value of the wrong type, which field (its JSON path) holds what JSON kind
// where another belongs, without Go's type names. Other errors are
// returned as they are. encoding/json's offsets point just past the
// value or byte at fault, so messages say "near" the column.
func ResultsJSONError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		if len(bytes.TrimSpace(data)) == 0 {
			return errors.New("the file is empty: write it again with defersim run")
		}
		line, col := jsonpos.LineCol(data, se.Offset)
		return fmt.Errorf("line %d, near column %d: not valid JSON (%v): the file was cut, damaged or edited by hand; write it again with defersim run", line, col, se)
	case errors.As(err, &te):
		line, col := jsonpos.LineCol(data, te.Offset)
		field := te.Field
		if field == "" {
			field = "the top level"
		}
		what := fmt.Sprintf("holds a JSON %s where %s belongs", te.Value, jsonKind(te.Type))
		if num, ok := strings.CutPrefix(te.Value, "number "); ok && te.Type != nil {
			switch k := jsonKind(te.Type); {
			case k == "a number":
				what = fmt.Sprintf("holds %s, out of a 64-bit float's range", num)
			case k == "a whole number" && !strings.ContainsAny(num, ".eE"):
				what = fmt.Sprintf("holds %s, out of a %d-bit integer's range", num, te.Type.Bits())
			}
		}
		return fmt.Errorf("line %d, near column %d: %s %s: the file was edited by hand or not written by defersim; write it again with defersim run",
			line, col, field, what)
	}
	return err
}

// jsonKind names what JSON a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}
