package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxFileSize bounds a catalog file read by LoadFile (64 MiB).
const MaxFileSize = 64 << 20

// LoadFile reads one catalog file. Its server name, version and variant come
// from the file name ("<server>@<version>[+variant].json"); the content is
// one of the shapes ParseFile accepts. A "<name>.meta.json" file beside it,
// when present, is read into Server.Meta.
func LoadFile(path string) (*Server, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	name, version, variant := ParseFileName(path)
	s, err := Parse(data, name, version, variant)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.Source = path
	if strings.HasSuffix(path, ".json") && !IsMetaFile(path) {
		metaPath := strings.TrimSuffix(path, ".json") + MetaSuffix
		meta, err := readLimited(metaPath)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			v, err := parseValue(meta)
			if err != nil {
				return nil, fmt.Errorf("%s: invalid JSON: %w%s", metaPath, err, jsonPlace(meta, err))
			}
			s.Meta = v.appendCompact(nil)
		}
	}
	return s, nil
}

func readLimited(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("read catalog %s: is a directory", path)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("read catalog %s: %d bytes is over the %d-byte limit", path, st.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	return data, nil
}

// Parse parses catalog content into a server called name at version and
// variant. Accepted shapes:
//
//   - an MCP tools/list result: {"tools":[tool, …]} (other members are
//     ignored; a non-empty "nextCursor" is an error: one page of a list);
//   - a JSON-RPC response carrying one: {"jsonrpc":…,"result":{"tools":[…]}};
//   - a bare array of tools;
//   - the pages of one paginated tools/list, results or responses, as a
//     JSON array of them or one after another (one per line): their tools
//     in order (toolList).
//
// Each tool is an MCP tool object, or an OpenAI function tool
// {"type":"function","function":{"name","description","parameters"}} which
// is converted to {"name","description","inputSchema"} (other members of
// "function", such as "strict", are dropped). Errors name the tool's index
// and the field at fault. Content that is not valid UTF-8 is an error (a
// tools/list result is JSON, which is UTF-8), not silently repaired.
func Parse(data []byte, name, version, variant string) (*Server, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if enc := utf16Encoding(data); enc != "" {
		return nil, fmt.Errorf("the file is %s, not UTF-8 (as Windows PowerShell's > and Out-File write): a catalog is JSON, which is UTF-8; re-save it as UTF-8", enc)
	}
	if !utf8.Valid(data) {
		at := invalidUTF8At(data)
		return nil, fmt.Errorf("invalid UTF-8 at byte offset %d (line %d): a catalog is JSON, which is UTF-8; re-encode the file as UTF-8 from the encoding it was saved in (often Latin-1 or Windows-1252)",
			at, bytes.Count(data[:at], []byte("\n"))+1)
	}
	roots, err := parseValues(data)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w%s", err, jsonPlace(data, err))
	}
	list, err := toolList(roots)
	if err != nil {
		return nil, err
	}
	tools := make([]*Tool, 0, len(list))
	for i, item := range list {
		tv, err := mcpShape(item)
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		t, err := toolFromValue(tv)
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		tools = append(tools, t)
	}
	s, err := NewServer(name, version, variant, tools)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// utf8BOM is the byte order mark some editors write at the start of a
// UTF-8 file; Parse ignores it (RFC 8259 §8.1).
var utf8BOM = []byte("\xef\xbb\xbf")

// utf16Encoding names the UTF-16 form data is in ("" when it is not):
// by its byte order mark, or by a NUL byte beside the ASCII "{" or "[" a
// JSON document starts with.
func utf16Encoding(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return "UTF-16 little-endian (byte order mark FF FE)"
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return "UTF-16 big-endian (byte order mark FE FF)"
	case len(data) >= 2 && data[1] == 0 && (data[0] == '{' || data[0] == '['):
		return "UTF-16 little-endian"
	case len(data) >= 2 && data[0] == 0 && (data[1] == '{' || data[1] == '['):
		return "UTF-16 big-endian"
	}
	return ""
}

// toolList finds the tools in a parsed file: roots holds its JSON values,
// one unless the file holds the pages of a paginated tools/list one per
// line. A JSON-RPC error response, and one page of a paginated list (a
// non-empty nextCursor), are errors: the file does not hold the server's
// tools. The pages of one list, as a JSON array of them or one per line,
// are read in order; every page but the last must name a nextCursor, and
// the last none.
func toolList(roots []*value) ([]*value, error) {
	if len(roots) == 1 && !isPageArray(roots[0]) {
		tools, cursor, err := page(roots[0])
		if err != nil {
			return nil, err
		}
		if cursor != nil {
			return nil, fmt.Errorf("nextCursor %s: this is one page of a paginated tools/list; give every page in one file, as a JSON array of the pages or one per line", quoted(cursor))
		}
		return tools.items, nil
	}
	pages := roots
	if len(roots) == 1 {
		pages = roots[0].items
	} else if slices.ContainsFunc(roots, func(v *value) bool { return !isPage(v) }) {
		return nil, errors.New("invalid JSON: unexpected data after the JSON value")
	}
	// Every page is read before their cursors are checked, so that a
	// response that is no page (an initialize result, a notification
	// logged between them) is named as such, not as a list cut short.
	lists := make([]*value, len(pages))
	cursors := make([]*value, len(pages))
	for i, p := range pages {
		if !isPage(p) {
			return nil, fmt.Errorf("pages[%d]: not a tools/list result or JSON-RPC response, as pages[0] is: give one list of tools, or the pages of one tools/list", i)
		}
		tools, cursor, err := page(p)
		if err != nil {
			// Not ErrNotCatalog's: the file holds pages, so it is meant as a
			// catalog; a page that is no tools/list result is most often
			// another response of a captured session (initialize).
			if errors.Is(err, ErrNotCatalog) {
				return nil, fmt.Errorf("pages[%d]: %v; keep only the tools/list responses (a capture of a server's output holds others, such as initialize's and notifications)", i, err)
			}
			return nil, fmt.Errorf("pages[%d]: %w", i, err)
		}
		lists[i], cursors[i] = tools, cursor
	}
	var items []*value
	for i, tools := range lists {
		switch more := len(pages) - 1 - i; {
		case more == 0 && cursors[i] != nil:
			return nil, fmt.Errorf("pages[%d], the last page, has nextCursor %s: the pages after it are missing; add them", i, quoted(cursors[i]))
		case more > 0 && cursors[i] == nil:
			return nil, fmt.Errorf("pages[%d] has no nextCursor, so the tools/list ended there, yet %d more follow: give the pages of one tools/list, in order", i, more)
		}
		items = append(items, tools.items...)
	}
	return items, nil
}

// isPage reports whether v is a tools/list result or a JSON-RPC response
// (one page of a list), not a tool: an object without "name" holding
// "tools", "result", "error" or "jsonrpc".
func isPage(v *value) bool {
	if v.kind != kObject || v.get("name") != nil {
		return false
	}
	return v.get("tools") != nil || v.get("result") != nil || v.get("error") != nil || v.get("jsonrpc") != nil
}

// isPageArray reports whether v is an array of pages (isPage of its first
// item) rather than an array of tools.
func isPageArray(v *value) bool {
	return v.kind == kArray && len(v.items) > 0 && isPage(v.items[0])
}

// page returns the tools of one tools/list result (or of the JSON-RPC
// response carrying it, or of a bare array of tools) and its nextCursor
// (nil when it has none, or an empty one).
func page(root *value) (tools, cursor *value, err error) {
	switch root.kind {
	case kArray:
		return root, nil, nil
	case kObject:
		holder := root
		if root.get("tools") == nil {
			if e := root.get("error"); e != nil && root.get("result") == nil {
				return nil, nil, fmt.Errorf("a JSON-RPC error response, not a tools/list result: %s", quoted(e))
			}
			if res := root.get("result"); res != nil {
				holder = res
			}
		}
		if c := holder.get("nextCursor"); c != nil && !(c.kind == kNull || (c.kind == kString && c.text == "")) {
			cursor = c
		}
		tools := holder.get("tools")
		if tools == nil {
			if cursor != nil {
				return nil, nil, fmt.Errorf("nextCursor %s and no \"tools\" member: want {\"tools\":[…],\"nextCursor\":…}", quoted(cursor))
			}
			if root.get("mcpServers") != nil {
				return nil, nil, fmt.Errorf(`%w: {"mcpServers":…} is a client's server configuration, not their tools: capture them with defersim catalog snapshot --from-config FILE -o DIR`, ErrNotCatalog)
			}
			return nil, nil, fmt.Errorf(`%w: no "tools" member: want {"tools":[…]}, a JSON-RPC result holding one, or an array of tools`, ErrNotCatalog)
		}
		if tools.kind != kArray {
			return nil, nil, errors.New(`field "tools" must be an array`)
		}
		return tools, cursor, nil
	}
	return nil, nil, fmt.Errorf(`%w: want {"tools":[…]} or an array of tools`, ErrNotCatalog)
}

// ErrNotCatalog is the error Parse wraps when the file's top level holds no
// list of tools at all (an object without "tools", a string, a number):
// another JSON file, such as a package.json, not a damaged catalog.
var ErrNotCatalog = errors.New("not a tools/list result")

// schemaMembers are the members a tool's input schema is found under:
// MCP's inputSchema, Anthropic's input_schema, and the parameters of an
// OpenAI Responses or Gemini function declaration.
var schemaMembers = []string{"inputSchema", "input_schema", "parameters"}

// mcpShape returns item as an MCP tool object: an OpenAI function tool
// (Chat Completions {"type":"function","function":{…}} or Responses
// {"type":"function","name":…,"parameters":…}) is converted to
// {"name","description","inputSchema"}; a tool whose schema is under
// input_schema or parameters has that member renamed inputSchema in place.
// A tool with its schema under two of those names is an error.
func mcpShape(item *value) (*value, error) {
	if item.kind != kObject {
		return nil, errors.New("not a JSON object")
	}
	typ := item.get("type")
	isFunction := typ != nil && typ.kind == kString && typ.text == "function"
	if fn := item.get("function"); isFunction && fn != nil && item.get("name") == nil {
		if fn.kind != kObject {
			return nil, errors.New(`field "function" must be an object`)
		}
		return functionTool(fn), nil
	}
	var found []string
	for _, k := range schemaMembers {
		if item.get(k) != nil {
			found = append(found, k)
		}
	}
	switch {
	case len(found) > 1:
		return nil, fmt.Errorf("fields %q and %q both hold an input schema; keep one", found[0], found[1])
	case len(found) == 0 || found[0] == "inputSchema":
		return item, nil
	case found[0] == "parameters" && isFunction:
		return functionTool(item), nil
	}
	out := &value{kind: kObject, members: slices.Clone(item.members)}
	for i := range out.members {
		if out.members[i].key == found[0] {
			out.members[i].key = "inputSchema"
		}
	}
	return out, nil
}

// functionTool builds {"name","description","inputSchema"} from an OpenAI
// function (its other members, such as "strict", are dropped), its
// parameters becoming inputSchema.
func functionTool(fn *value) *value {
	out := &value{kind: kObject}
	if n := fn.get("name"); n != nil {
		out.members = append(out.members, member{key: "name", val: n})
	}
	if d := fn.get("description"); d != nil {
		out.members = append(out.members, member{key: "description", val: d})
	}
	if p := fn.get("parameters"); p != nil {
		out.members = append(out.members, member{key: "inputSchema", val: p})
	}
	return out
}

// maxQuoted bounds the bytes of a user's value an error message quotes:
// longer values are cut (at a character boundary) and marked with an
// ellipsis and their full length.
const maxQuoted = 200

// quoted is v's compact JSON for an error message, at most maxQuoted bytes
// of it: `{"code":-32000,"message":"aaaa…" (1048600 bytes)`.
func quoted(v *value) string { return capQuoted(v.appendCompact(nil)) }

// capQuoted cuts b to maxQuoted bytes, at a UTF-8 character boundary,
// adding "… (N bytes)" when it was longer.
func capQuoted(b []byte) string {
	if len(b) <= maxQuoted {
		return string(b)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", b[:cut], len(b))
}

// invalidUTF8At returns the offset of the first byte of data that does not
// start a valid UTF-8 sequence.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}
