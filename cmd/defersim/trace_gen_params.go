package main

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// genParamSources is where trace gen's parameters came from: the --params
// file (name and bytes; "" and nil without one) and the flags given.
type genParamSources struct {
	file  string
	data  []byte
	flags *pflag.FlagSet
}

// genParamFlags are the flags that set a parameter key (or, ending in
// ".", every key under it).
var genParamFlags = []struct{ key, flag string }{
	{"seed", "seed"}, {"sessions", "sessions"}, {"servers", "servers"}, {"zipf", "zipf"},
	{"recorded", "recorded"}, {"drift.", "drift"}, {"over.servers", "servers"},
}

// paramKeyRE matches the parameter key an error about the parameters
// starts with ("drift.kinds", "planted[2].tool", "over.servers").
var paramKeyRE = regexp.MustCompile(`^([a-z_]+(?:\[[0-9]+\])?(?:\.[a-z_]+(?:\[[0-9]+\])?)*)[:, ]`)

// wrap is err, an error about the generator parameters, as an exit error
// saying where the key it names was set: "--flag: " when a flag given set
// it, else "FILE:LINE: " (the line where the --params file writes the key;
// "FILE: " when it does not), else err as it is.
func (s genParamSources) wrap(err error) error {
	msg := err.Error()
	key := ""
	if m := paramKeyRE.FindStringSubmatch(strings.TrimPrefix(msg, "invalid generator parameters: ")); m != nil {
		key = m[1]
	}
	if key != "" && s.flags != nil {
		for _, f := range genParamFlags {
			if (key == f.key || strings.HasSuffix(f.key, ".") && strings.HasPrefix(key, f.key)) && s.flags.Changed(f.flag) {
				return exitError{code: 2, msg: "--" + f.flag + ": " + msg}
			}
		}
	}
	if s.file == "" {
		return exitError{code: 2, msg: msg}
	}
	where := s.file
	if line := yamlKeyLine(s.data, key); line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	return exitError{code: 2, msg: where + ": " + msg}
}

// yamlKeyLine is the line where the YAML document data writes the key path
// ("drift.kinds", "planted[2].tool"), 0 when it does not write it.
func yamlKeyLine(data []byte, path string) int {
	if path == "" {
		return 0
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := 0
	for _, seg := range strings.Split(path, ".") {
		name, index := seg, -1
		if i := strings.IndexByte(seg, '['); i >= 0 {
			name = seg[:i]
			index, _ = strconv.Atoi(strings.TrimSuffix(seg[i+1:], "]"))
		}
		if n.Kind != yaml.MappingNode {
			return 0
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				next, line = n.Content[i+1], n.Content[i].Line
			}
		}
		if next == nil {
			return 0
		}
		n = next
		if index >= 0 {
			if n.Kind != yaml.SequenceNode || index >= len(n.Content) {
				return 0
			}
			n, line = n.Content[index], n.Content[index].Line
		}
	}
	return line
}
