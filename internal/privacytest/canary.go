// Package privacytest plants distinct canary strings in test inputs and
// finds them in whatever a command wrote or printed. A canary is lowercase
// ASCII letters only, so escaping (JSON, HTML, CSV), lowercasing and word
// tokenisation leave it intact and a leak is found in any of those forms.
package privacytest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// prefix starts every canary; it is not an English word, so it cannot occur
// in an output by chance.
const prefix = "zqxcanary"

// Set maps a field name (where a canary was planted) to its canary.
type Set struct {
	tag     string
	byField map[string]string
	fields  []string
}

// NewSet returns an empty set whose canaries carry tag, two lowercase ASCII
// letters that keep the canaries of different sets apart. It panics on
// another tag (a mistake in the calling test).
func NewSet(tag string) *Set {
	if len(tag) != 2 || strings.Trim(tag, "abcdefghijklmnopqrstuvwxyz") != "" {
		panic(fmt.Sprintf("privacytest: tag %q is not two lowercase letters", tag))
	}
	return &Set{tag: tag, byField: map[string]string{}}
}

// canaryLen is the length of every canary.
const canaryLen = len(prefix) + 2 + 4 + 2

// Add returns the canary of field, making a new one the first time. Every
// canary has the same length, so none is a substring of another.
func (s *Set) Add(field string) string {
	if c, ok := s.byField[field]; ok {
		return c
	}
	c := prefix + s.tag + letters(len(s.fields)) + "qz"
	s.byField[field] = c
	s.fields = append(s.fields, field)
	return c
}

// letters spells n in base 26 with four lowercase letters.
func letters(n int) string {
	var b [4]byte
	for i := 3; i >= 0; i-- {
		b[i] = byte('a' + n%26)
		n /= 26
	}
	return string(b[:])
}

// Fields returns the planted fields in the order they were added.
func (s *Set) Fields() []string { return slices.Clone(s.fields) }

// Leak is one canary found in one output.
type Leak struct {
	// Where names the output (a file path or "stdout").
	Where string
	// Field is the field the canary was planted in.
	Field string
	// Context is a few bytes around the find.
	Context string
}

func (l Leak) String() string {
	return fmt.Sprintf("%s: canary of %s found: …%s…", l.Where, l.Field, l.Context)
}

// dataURI matches a base64 data URI, whose payload Scan decodes too.
var dataURI = regexp.MustCompile(`data:[a-z]+/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=]+)`)

// Scan returns the canaries of s found in data (case-insensitively, and
// inside base64 data URIs), each once per field. A truncated canary of s is
// reported as found in "an unknown field"; other sets' canaries are ignored.
func (s *Set) Scan(where string, data []byte) []Leak {
	var out []Leak
	seen := map[string]bool{}
	s.scan(where, data, seen, &out)
	for _, m := range dataURI.FindAllSubmatch(data, -1) {
		if dec, err := base64.StdEncoding.DecodeString(string(m[1])); err == nil {
			s.scan(where+" (data URI)", dec, seen, &out)
		}
	}
	return out
}

func (s *Set) scan(where string, data []byte, seen map[string]bool, out *[]Leak) {
	low := bytes.ToLower(data)
	mine := []byte(prefix + s.tag)
	from := 0
	for {
		i := bytes.Index(low[from:], mine)
		if i < 0 {
			return
		}
		i += from
		from = i + len(mine)
		end := min(i+canaryLen, len(low))
		c := string(low[i:end])
		field := "an unknown field"
		for f, planted := range s.byField {
			if planted == c {
				field = f
			}
		}
		if seen[field] {
			continue
		}
		seen[field] = true
		lo, hi := max(0, i-40), min(len(data), end+40)
		*out = append(*out, Leak{Where: where, Field: field, Context: strings.ToValidUTF8(string(data[lo:hi]), "?")})
	}
}

// ScanDir scans every regular file under dir.
func (s *Set) ScanDir(dir string) ([]Leak, error) {
	var out []Leak
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, s.Scan(path, data)...)
		if plain := gunzipped(data); plain != nil {
			out = append(out, s.Scan(path+" (decompressed)", plain)...)
		}
		return nil
	})
	return out, err
}

// gunzipped returns the decompressed content of a gzip file, or of a file
// made of one short header line and a gzip stream (defersim's state files:
// checkpoint, shard.bin), up to 1 GiB; nil when data is neither.
func gunzipped(data []byte) []byte {
	body := data
	if !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		i := bytes.IndexByte(data, '\n')
		if i < 0 || i > 64 || !bytes.HasPrefix(data[i+1:], []byte{0x1f, 0x8b}) {
			return nil
		}
		body = data[i+1:]
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	plain, _ := io.ReadAll(io.LimitReader(zr, 1<<30))
	return plain
}

// Files lists the regular files under dir (relative, sorted), so a test can
// show that the scan covered what it expected.
func Files(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	return out, err
}
