package toolschema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// serverFileName matches the catalog naming <server>@<version>[+variant].json.
	serverFileName = regexp.MustCompile(`^([^@/]+)@([^@/]+)\.json$`)
	// domainFileName matches tools_<domain>.json and tools_<domain>.openai_format.json.
	domainFileName = regexp.MustCompile(`^tools_([A-Za-z0-9-]+)(?:\.[A-Za-z0-9_-]+)?\.json$`)
)

// LoadFile reads a tool file (see Parse for the shapes). The file name adds
// what the content may not say: <server>@<version>.json names the server and
// version of its tools, and tools_<domain>.json (or
// tools_<domain>.openai_format.json) the domain they serve, unless the
// content names one.
func LoadFile(path string) ([]*Set, Dropped, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read tool file: %w", err)
	}
	// A UTF-8 byte order mark (as Windows tools write one) is no part of
	// the JSON: the file read as "not a tool list".
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	base := filepath.Base(path)
	sets, dropped, err := Parse(base, data)
	if err != nil {
		return nil, dropped, err
	}
	ApplyFileName(base, sets)
	return sets, dropped, nil
}

// ApplyFileName fills the server, version and domain that base (a file name)
// implies into sets that do not already carry them.
func ApplyFileName(base string, sets []*Set) {
	server, version := "", ""
	if m := serverFileName.FindStringSubmatch(base); m != nil {
		server, version = m[1], m[2]
	}
	domain := DomainOfFileName(base)
	for _, s := range sets {
		if s.Server == "" && server != "" {
			s.Server, s.Version = server, version
		}
		if s.Domain == "" && domain != "" {
			s.Domain = domain
		}
	}
}

// DomainOfFileName returns <domain> for tools_<domain>[.suffix].json, or "".
func DomainOfFileName(base string) string {
	if m := domainFileName.FindStringSubmatch(base); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}
