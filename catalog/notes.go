package catalog

import "fmt"

// Kinds of catalog notes: what loading read differently from what a server
// served, and servers a reader should know are empty.
const (
	// NoteSchemaMissing: a tool with no inputSchema member, read as
	// {"type":"object"}.
	NoteSchemaMissing = "input_schema_missing"
	// NoteSchemaNull: a tool whose inputSchema is null, read as
	// {"type":"object"}.
	NoteSchemaNull = "input_schema_null"
	// NoteNoTools: a server version whose file lists no tools ([],
	// {"tools":[]}): it loads and serves nothing.
	NoteNoTools = "server_without_tools"
)

// noteKinds are the note kinds in the order Notes lists them.
var noteKinds = []string{NoteSchemaMissing, NoteSchemaNull, NoteNoTools}

// MaxNoteItems bounds the items one Note names.
const MaxNoteItems = 20

// Note counts the tools (or servers) of one kind of catalog note and names
// up to MaxNoteItems of them, in load order.
type Note struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
	// Items name them: `server@version: tools[3] "name"` for a tool,
	// `server@version` for a server.
	Items []string `json:"items"`
}

// Text says what a note's kind means, for a reader.
func (n Note) Text() string {
	switch n.Kind {
	case NoteSchemaMissing:
		return fmt.Sprintf(`%d tool(s) have no inputSchema, read as {"type":"object"}`, n.Count)
	case NoteSchemaNull:
		return fmt.Sprintf(`%d tool(s) have a null inputSchema, read as {"type":"object"}`, n.Count)
	case NoteNoTools:
		return fmt.Sprintf("%d server version(s) serve no tools (the file lists none)", n.Count)
	}
	return fmt.Sprintf("%d %s", n.Count, n.Kind)
}

// Notes groups what loading servers read differently from what they serve
// (a missing or null input schema), and the servers that serve no tools,
// by kind (in a fixed order; kinds with none left out). Nil when there is
// nothing to note.
func Notes(servers []*Server) []Note {
	byKind := map[string]*Note{}
	add := func(kind, item string) {
		n := byKind[kind]
		if n == nil {
			n = &Note{Kind: kind}
			byKind[kind] = n
		}
		n.Count++
		if len(n.Items) < MaxNoteItems {
			n.Items = append(n.Items, item)
		}
	}
	for _, s := range servers {
		if len(s.Tools) == 0 {
			add(NoteNoTools, s.Label())
		}
		for i, t := range s.Tools {
			if t.WarningKind != "" {
				add(t.WarningKind, fmt.Sprintf("%s: tools[%d] %q", s.Label(), i, t.Name))
			}
		}
	}
	var out []Note
	for _, k := range noteKinds {
		if n := byKind[k]; n != nil {
			out = append(out, *n)
		}
	}
	return out
}

// EmptyServers names the servers that serve no tools, by source file (or
// label when built in memory), with what that means.
func EmptyServers(servers []*Server) []string {
	var out []string
	for _, s := range servers {
		if len(s.Tools) == 0 {
			out = append(out, where(s)+": lists no tools; the server loads and serves none")
		}
	}
	return out
}
