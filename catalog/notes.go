package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

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
	// NoteSchemaInvalid: a tool whose inputSchema cannot check calls: it
	// does not compile, most often because it fails its draft's
	// meta-schema (a nested "type": "dict"). Notes finds them with the
	// SchemaCheck it is given.
	NoteSchemaInvalid = "input_schema_invalid"
	// NoteBuildVariant: a server version whose file name's "+" part reads
	// like semver build metadata, read as a launch variant: a server of
	// its own (BuildMetadataVariants).
	NoteBuildVariant = "file_build_metadata_variant"
	// NoteMetaContradicts: a server version whose .meta.json contradicts
	// its catalog (MetaMismatches); the catalog is read as it is.
	NoteMetaContradicts = "meta_contradicts_catalog"
	// NoteToolNameUnusual: a tool whose name the MCP specification advises
	// against (UnusualToolNames), counted as written.
	NoteToolNameUnusual = "tool_name_unusual"
	// NoteVersionsMixed: a series whose versions mix dates and release
	// numbers (MixedVersionSchemes), ordered by reading a date as a
	// release number.
	NoteVersionsMixed = "versions_mixed_schemes"
)

// noteKinds are the note kinds in the order Notes lists them.
var noteKinds = []string{NoteSchemaMissing, NoteSchemaNull, NoteSchemaInvalid, NoteNoTools,
	NoteBuildVariant, NoteMetaContradicts, NoteToolNameUnusual, NoteVersionsMixed}

// NoteKinds returns every kind of note Notes gives, in the order it lists
// them: the kinds a command warning of catalog notes must say something
// of.
func NoteKinds() []string { return slices.Clone(noteKinds) }

// SchemaCheck says whether an input schema can check calls, and if not,
// why (where in the schema, and what is wrong there):
// validation.SchemaCheck.
type SchemaCheck func(schema []byte) (issue string, ok bool)

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
		return nouns.Count(n.Count, "tool") + " " + nouns.Form(n.Count, "has", "have") + ` no inputSchema, read as {"type":"object"}`
	case NoteSchemaNull:
		return nouns.Count(n.Count, "tool") + " " + nouns.Form(n.Count, "has", "have") + ` a null inputSchema, read as {"type":"object"}`
	case NoteNoTools:
		return nouns.Count(n.Count, "server version") + " " + nouns.Form(n.Count, "serves", "serve") + " no tools (the file lists none)"
	case NoteSchemaInvalid:
		return nouns.Count(n.Count, "tool") + " " + nouns.Form(n.Count, "has", "have") + " an inputSchema that fails its meta-schema (or does not compile), so it cannot check calls"
	case NoteBuildVariant:
		return nouns.Count(n.Count, "catalog file") + ` whose "+" may be semver build metadata, read as a launch variant: ` +
			nouns.Form(n.Count, "a server of its own", "servers of their own")
	case NoteMetaContradicts:
		return nouns.Count(n.Count, "catalog") + " contradicted by " + nouns.Form(n.Count, "its", "their") +
			" .meta.json (edited after the capture, or another capture's metadata; read as " + nouns.Form(n.Count, "it is", "they are") + ")"
	case NoteToolNameUnusual:
		return nouns.Count(n.Count, "tool name") + " the MCP specification advises against, counted as written (a runtime or provider may refuse or rename " +
			nouns.Form(n.Count, "it", "them") + ")"
	case NoteVersionsMixed:
		return nouns.CountAs(n.Count, "server series", "server series") + " " + nouns.Form(n.Count, "mixes", "mix") +
			" dates and release numbers in " + nouns.Form(n.Count, "its", "their") +
			" versions, ordered by reading a date as a release number (2024-09-01 as 2024.9.1, after every release below 2024): the latest and each upgrade's drift follow that order, which may not be the release order"
	}
	return fmt.Sprintf("%d %s", n.Count, n.Kind)
}

// Notes groups what loading servers read differently from what they serve
// (a missing or null input schema), the tools whose schema check (when
// not nil) finds broken, the servers that serve no tools, and what the
// catalog file checks find (a file name's build metadata read as a
// variant, a .meta.json contradicting its catalog, a tool name the MCP
// specification advises against, a series mixing dates and release
// numbers), by kind (in a fixed order; kinds with
// none left out). Nil when there is nothing to note.
func Notes(servers []*Server, check SchemaCheck) []Note {
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
	for _, item := range InvalidSchemas(servers, check) {
		add(NoteSchemaInvalid, item)
	}
	for _, s := range buildMetadataServers(servers) {
		add(NoteBuildVariant, fmt.Sprintf("%s (rename to %s@%s.json if %q is build metadata)", s.Label(), s.Name, s.Version, s.Variant))
	}
	for _, m := range metaMismatches(servers) {
		add(NoteMetaContradicts, m.server.Label()+": "+m.why)
	}
	for _, m := range mixedVersionSchemes(servers) {
		add(NoteVersionsMixed, fmt.Sprintf("%s: %s (latest taken: %s)", m.key, strings.Join(m.versions, " before "), m.versions[len(m.versions)-1]))
	}
	for _, u := range unusualToolNames(servers) {
		add(NoteToolNameUnusual, fmt.Sprintf("%s: tools[%d] %.80q %s", u.server.Label(), u.index, u.server.Tools[u.index].Name, u.short))
	}
	var out []Note
	for _, k := range noteKinds {
		if n := byKind[k]; n != nil {
			out = append(out, *n)
		}
	}
	return out
}

// InvalidSchemas names every tool whose input schema check finds broken,
// in load order, with where and why: `server@version: tools[3] "name" at
// /properties/a/type: reason`. Each distinct schema is checked once (the
// versions of a server share most); nil without a check.
func InvalidSchemas(servers []*Server, check SchemaCheck) []string {
	if check == nil {
		return nil
	}
	var out []string
	checked := map[string]string{} // schema → its issue, "" when none
	for _, s := range servers {
		for i, t := range s.Tools {
			if len(t.InputSchema) == 0 {
				continue
			}
			issue, seen := checked[string(t.InputSchema)]
			if !seen {
				if why, ok := check(t.InputSchema); !ok {
					issue = why
				}
				checked[string(t.InputSchema)] = issue
			}
			if issue != "" {
				out = append(out, fmt.Sprintf("%s: tools[%d] %q at %s", s.Label(), i, t.Name, issue))
			}
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
