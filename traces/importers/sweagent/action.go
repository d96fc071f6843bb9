package sweagent

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// How a thought-action step's action text became a tool call, as the
// report counts it.
const (
	actCommand  = "action text: documented command, arguments read from its signature"
	actMismatch = "action text: documented command whose text does not fit its signature (arguments kept as the text)"
	actNoEnd    = "action text: multi-line command without its end marker (text up to the end taken)"
	actShell    = "action text: other text, run as a shell command (tool bash, arguments {command})"
	actEmpty    = "action text: empty (no tool call)"
)

// ShellTool is the tool a thought-action step's action becomes when it is
// not a documented command: SWE-agent runs it in the shell.
const ShellTool = "bash"

// parseAction turns the action text of a thought-action step into a tool
// call: a documented command with the arguments its signature names, or a
// shell command. how says which (one of the act… constants).
func parseAction(text string, cmds map[string]*command) (tool string, args json.RawMessage, how string) {
	t := strings.TrimSpace(text)
	if t == "" {
		return "", nil, actEmpty
	}
	first, rest, multi := strings.Cut(t, "\n")
	name := strings.Fields(first)[0]
	c := cmds[name]
	if c == nil || name == ShellTool || strings.HasPrefix(c.signature, "<") {
		b, _ := json.Marshal(map[string]string{"command": t})
		return ShellTool, b, actShell
	}
	asText := func() (string, json.RawMessage, string) {
		b, _ := json.Marshal(t)
		return c.name, b, actMismatch
	}
	sigLines := strings.Split(c.signature, "\n")
	vals := map[string]string{}
	if !matchLine(sigLines[0], first, vals) {
		// Hand-written documentation may give a signature that does not
		// name every argument; SWE-agent then invokes the command with its
		// arguments in order.
		clear(vals)
		if len(sigLines) > 1 || !matchLine(c.defaultSignature(), first, vals) {
			return asText()
		}
	}
	how = actCommand
	if len(sigLines) > 1 {
		// Multi-line command: the text argument runs to the end marker.
		textArgs := placeholder.FindAllStringSubmatch(strings.Join(sigLines[1:len(sigLines)-1], "\n"), -1)
		marker := strings.TrimSpace(sigLines[len(sigLines)-1])
		if len(textArgs) != 1 {
			return asText()
		}
		lines := strings.Split(rest, "\n")
		body, found := lines, false
		for i, l := range lines {
			if strings.TrimSpace(l) == marker {
				if strings.TrimSpace(strings.Join(lines[i+1:], "\n")) != "" {
					return asText()
				}
				body, found = lines[:i], true
				break
			}
		}
		if !found {
			how = actNoEnd
		}
		vals[textArgs[0][1]] = strings.Join(body, "\n")
	} else if multi {
		return asText()
	}
	obj := map[string]any{}
	for _, a := range c.args {
		v, ok := vals[a.name]
		if !ok {
			continue
		}
		obj[a.name] = typed(v, a.typ)
	}
	for k, v := range vals {
		if _, ok := obj[k]; !ok {
			obj[k] = v // a placeholder the argument list does not document
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return asText()
	}
	return c.name, b, how
}

// defaultSignature is the invocation SWE-agent uses for a command whose
// signature does not say: its name, then its arguments in order, optional
// ones in brackets.
func (c *command) defaultSignature() string {
	var b strings.Builder
	b.WriteString(c.name)
	for _, a := range c.args {
		if a.required {
			b.WriteString(" <" + a.name + ">")
		} else {
			b.WriteString(" [<" + a.name + ">]")
		}
	}
	return b.String()
}

// typed converts an argument's text to its documented type when it reads
// as one; otherwise the text is kept (validation then reports the type).
func typed(v, typ string) any {
	switch typ {
	case "integer":
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	}
	return v
}

// sigItem is one element of a signature's first line after the command
// name: a group of tokens, optional when written in brackets.
type sigItem struct {
	tokens   []string
	optional bool
}

// sigItems splits a signature line into its items (the first token, the
// command's name, left out). Quotes around a placeholder are dropped: the
// model may or may not write them, and the shell removes them.
func sigItems(sig string) []sigItem {
	fields := strings.Fields(sig)
	if len(fields) > 0 && !strings.HasPrefix(fields[0], "<") {
		fields = fields[1:]
	}
	var items []sigItem
	var group *sigItem
	for _, f := range fields {
		open := strings.HasPrefix(f, "[")
		close := strings.HasSuffix(f, "]")
		tok := unquote(strings.TrimSuffix(strings.TrimPrefix(f, "["), "]"))
		switch {
		case group != nil:
			group.tokens = append(group.tokens, tok)
			if close {
				items = append(items, *group)
				group = nil
			}
		case open && !close:
			group = &sigItem{tokens: []string{tok}, optional: true}
		default:
			items = append(items, sigItem{tokens: []string{tok}, optional: open})
		}
	}
	if group != nil {
		items = append(items, *group)
	}
	return items
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// matchLine binds the placeholders of a signature line to the words of an
// action line (after the command name), filling vals. It reports whether
// every required item found its words and no word was left over.
func matchLine(sig, line string, vals map[string]string) bool {
	words := shellWords(line)
	if len(words) == 0 {
		return false
	}
	words = words[1:]
	for _, it := range sigItems(sig) {
		if it.optional {
			if len(words) < len(it.tokens) {
				continue
			}
			if !placeholder.MatchString(it.tokens[0]) && words[0] != it.tokens[0] {
				continue
			}
		}
		if len(words) < len(it.tokens) {
			return false
		}
		for _, tok := range it.tokens {
			if !bindToken(tok, words[0], vals) {
				return false
			}
			words = words[1:]
		}
	}
	return len(words) == 0
}

// bindToken matches one signature token (a literal, a placeholder, or
// placeholders joined by literal text such as <start>:<end>) against word.
func bindToken(tok, word string, vals map[string]string) bool {
	locs := placeholder.FindAllStringSubmatchIndex(tok, -1)
	if len(locs) == 0 {
		return tok == word
	}
	var re strings.Builder
	re.WriteString("^")
	prev := 0
	for i, l := range locs {
		re.WriteString(regexp.QuoteMeta(tok[prev:l[0]]))
		if i == len(locs)-1 {
			re.WriteString("(.*)")
		} else {
			re.WriteString("(.*?)")
		}
		prev = l[1]
	}
	re.WriteString(regexp.QuoteMeta(tok[prev:]))
	re.WriteString("$")
	m := regexp.MustCompile(re.String()).FindStringSubmatch(word)
	if m == nil {
		return false
	}
	for i, l := range locs {
		vals[tok[l[2]:l[3]]] = m[i+1]
	}
	return true
}

// shellWords splits a command line into words as a POSIX shell would for
// plain quoting: single quotes keep everything, double quotes keep all but
// backslash escapes of " \ $ `, a backslash outside quotes escapes the next
// character. An unterminated quote runs to the end of the line.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				cur.WriteString(line[i+1:])
				i = len(line)
				continue
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += 1 + j
		case c == '"':
			inWord = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
		case c == '\\' && i+1 < len(line):
			inWord = true
			i++
			cur.WriteByte(line[i])
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
