package sweagent

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/defersim/defersim/traces/importers/toolschema"
)

// command is one SWE-agent command as its documentation describes it.
type command struct {
	name      string
	docstring string
	// signature is how the command is invoked; a multi-line command's
	// signature has its text argument and end marker on further lines.
	signature string
	args      []argument
	// typed says the documentation gives argument types and descriptions
	// (the long form); the short form gives only the signature.
	typed bool
}

// argument is one documented argument of a command.
type argument struct {
	name, typ, description string
	required               bool
}

var (
	// commandHeader opens a command in the long documentation form
	// ("name:" alone on a line).
	commandHeader = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):\s*$`)
	// argumentLine is one argument in the long form:
	// "    - name (type) [required]: description".
	argumentLine = regexp.MustCompile(`^\s+- ([A-Za-z_][A-Za-z0-9_-]*) \(([^)]*)\) \[(required|optional)\]:\s?(.*)$`)
	// placeholder is an argument in a signature: <name>.
	placeholder = regexp.MustCompile(`<([A-Za-z_][A-Za-z0-9_-]*)>`)
	// shortEntry opens a command in the short form ("name … - docstring"
	// or a multi-line signature's first line).
	shortEntry = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)(?:\s|$)`)
)

// commandsHeader is the line that opens the command documentation inside
// a thought-action system prompt.
const commandsHeader = "COMMANDS:"

// parseDocs reads command documentation in the long form SWE-agent writes
// into its configuration (tools.command_docs) and into system prompts:
//
//	name:
//	  docstring: …
//	  signature: …
//	  arguments:
//	    - arg (type) [required]: description
//
// It stops at the first line that belongs to none of this and returns the
// commands and the number of bytes of text it read.
func parseDocs(text string) ([]command, int) {
	cmds, n := readDocs(text)
	for i := range cmds {
		cmds[i].docstring = strings.TrimSpace(cmds[i].docstring)
	}
	return cmds, n
}

func readDocs(text string) ([]command, int) {
	var cmds []command
	var cur *command
	field := "" // "docstring", "signature", "arguments" or "" (between fields)
	end, curStart := 0, 0
	lines := strings.SplitAfter(text, "\n")
	pos := 0
	for _, raw := range lines {
		line := strings.TrimRight(raw, "\r\n")
		next := pos + len(raw)
		switch {
		case cur != nil && strings.HasPrefix(line, "  signature:"):
			cur.signature, field, end = strings.TrimSpace(strings.TrimPrefix(line, "  signature:")), "signature", next
		case field == "docstring":
			// A docstring may run over several lines, blank ones and ones
			// that look like anything else included, until the signature
			// that always follows it.
			cur.docstring += "\n" + line
			end = next
		case commandHeader.MatchString(line):
			cmds = append(cmds, command{name: commandHeader.FindStringSubmatch(line)[1], typed: true})
			cur, field, end, curStart = &cmds[len(cmds)-1], "", next, pos
		case cur == nil:
			return cmds, end
		case strings.HasPrefix(line, "  docstring:"):
			cur.docstring, field, end = strings.TrimSpace(strings.TrimPrefix(line, "  docstring:")), "docstring", next
		case strings.TrimSpace(line) == "arguments:" && strings.HasPrefix(line, "  "):
			field, end = "arguments", next
		case field == "arguments" && argumentLine.MatchString(line):
			m := argumentLine.FindStringSubmatch(line)
			cur.args = append(cur.args, argument{name: m[1], typ: m[2], required: m[3] == "required", description: m[4]})
			end = next
		case field == "signature" && strings.TrimSpace(line) != "":
			// A multi-line command's signature: its text argument and end
			// marker on the following lines.
			cur.signature += "\n" + line
			end = next
		case strings.TrimSpace(line) == "":
			field = ""
		default:
			return cmds, end
		}
		pos = next
	}
	if field == "docstring" {
		// The text ended inside a docstring: no signature followed, so the
		// last "command" was not one.
		return cmds[:len(cmds)-1], curStart
	}
	return cmds, end
}

// parseShortDocs reads the short documentation form of older system
// prompts: one entry per command, "signature - docstring", the signature of
// a multi-line command spanning lines ("edit <a>:<b>\n<text>\nend_of_edit -
// …"). It stops at the first blank line and returns the commands and the
// bytes read. Arguments come from the signature's placeholders (required
// unless in brackets), without types or descriptions.
func parseShortDocs(text string) ([]command, int) {
	var cmds []command
	lines := strings.SplitAfter(text, "\n")
	pos, end := 0, 0
	var sig []string
	for _, raw := range lines {
		line := strings.TrimRight(raw, "\r\n")
		next := pos + len(raw)
		pos = next
		if strings.TrimSpace(line) == "" {
			break
		}
		if len(sig) == 0 && !shortEntry.MatchString(line) {
			break
		}
		before, after, ok := strings.Cut(line, " - ")
		if !ok {
			sig = append(sig, line)
			continue
		}
		sig = append(sig, before)
		c := command{name: shortEntry.FindStringSubmatch(sig[0])[1], signature: strings.Join(sig, "\n"), docstring: strings.TrimSpace(after)}
		c.args = signatureArgs(c.signature)
		cmds = append(cmds, c)
		sig, end = nil, next
	}
	return cmds, end
}

// signatureArgs lists the placeholders of a signature as arguments:
// required unless inside brackets.
func signatureArgs(sig string) []argument {
	var args []argument
	for _, m := range placeholder.FindAllStringSubmatchIndex(sig, -1) {
		name := sig[m[2]:m[3]]
		optional := m[0] > 0 && sig[m[0]-1] == '['
		args = append(args, argument{name: name, required: !optional})
	}
	return args
}

// promptCommands finds the command documentation in a system prompt: the
// block after a line "COMMANDS:", in the long or the short form. It returns
// the commands and the prompt without the block (header included), or no
// commands and the prompt unchanged.
func promptCommands(prompt string) ([]command, string) {
	i := strings.Index(prompt, "\n"+commandsHeader+"\n")
	start := i + 1
	if strings.HasPrefix(prompt, commandsHeader+"\n") {
		i, start = 0, 0
	}
	if i < 0 {
		return nil, prompt
	}
	body := prompt[start+len(commandsHeader)+1:]
	cmds, n := parseDocs(body)
	if len(cmds) == 0 {
		cmds, n = parseShortDocs(body)
	}
	if len(cmds) == 0 {
		return nil, prompt
	}
	return cmds, prompt[:start] + body[n:]
}

// jsonTypes are the JSON Schema type names an argument type may carry over.
var jsonTypes = map[string]bool{"string": true, "integer": true, "number": true, "boolean": true, "array": true, "object": true}

// tool builds the MCP tool of a command the way SWE-agent builds a
// function-calling tool from it: description = docstring, an object schema
// with one property per argument (type and description) and the required
// ones listed. The documentation gives no enum or item types, which
// SWE-agent's own tool definitions may carry, so the result is approximate.
// It returns the argument types it could not carry over.
func (c *command) tool() (toolschema.Tool, []string) {
	var dropped []string
	t := toolschema.Tool{Name: c.name, Description: c.docstring}
	if len(c.args) == 0 {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
		return t, nil
	}
	type prop struct {
		Type        string `json:"type,omitempty"`
		Description string `json:"description,omitempty"`
	}
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	required := []string{}
	for i, a := range c.args {
		if i > 0 {
			b.WriteByte(',')
		}
		p := prop{Description: a.description}
		switch {
		case jsonTypes[a.typ]:
			p.Type = a.typ
		case a.typ != "":
			dropped = append(dropped, a.typ)
		}
		name, _ := json.Marshal(a.name)
		val, _ := json.Marshal(p)
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
		if a.required {
			required = append(required, a.name)
		}
	}
	req, _ := json.Marshal(required)
	b.WriteString(`},"required":`)
	b.Write(req)
	b.WriteString(`}`)
	t.InputSchema = json.RawMessage(b.String())
	return t, dropped
}
