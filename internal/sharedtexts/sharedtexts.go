// Package sharedtexts collects the texts of the real-data folder
// (../shared/data) that token counts are checked on: every file whole,
// every string of every JSON document, every CSV cell, and the bytes each
// catalog tool is counted in. Tests use it; the binary does not.
package sharedtexts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
)

// FullEnv names the environment variable that, set to 1, makes the tests
// compare every text (Pick with Full).
const FullEnv = "DEFERSIM_TOKENS_FULL"

// Set is the distinct texts of a folder.
type Set struct {
	// Texts are distinct, longest first (ties in byte order).
	Texts []string
	// Origin says where each text was first found.
	Origin map[string]string
	// Files counts the files read; Undecoded lists the files whose strings
	// or cells could not be read (their whole text is still in Texts).
	Files     int
	Undecoded []string
}

// Collect returns the distinct non-empty texts under dir:
//
//   - every regular file, whole (JSON, JSON Lines, trajectories, CSV, TSV,
//     Markdown, licences);
//   - every object key and string value of every file that decodes as a
//     stream of JSON values (.json, .jsonl, .traj), and every cell of every
//     CSV and TSV file;
//   - for every catalog file under dir/catalogs, each tool's name,
//     description, compact input schema and the bytes of each wire form.
func Collect(dir string) (*Set, error) {
	s := &Set{Origin: map[string]string{}}
	add := func(text, origin string) {
		if text == "" {
			return
		}
		if _, ok := s.Origin[text]; !ok {
			s.Origin[text] = origin
			s.Texts = append(s.Texts, text)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s.Files++
		add(string(b), rel)
		ext := filepath.Ext(path)
		var perr error
		switch ext {
		case ".json", ".jsonl", ".traj":
			perr = jsonStrings(b, func(t string) { add(t, rel+" (string)") })
		case ".csv", ".tsv":
			perr = cells(b, ext == ".tsv", func(t string) { add(t, rel+" (cell)") })
		}
		if perr != nil {
			s.Undecoded = append(s.Undecoded, fmt.Sprintf("%s: %v", rel, perr))
		}
		if strings.HasPrefix(rel, "catalogs"+string(filepath.Separator)) && ext == ".json" && !catalog.IsMetaFile(path) {
			srv, err := catalog.LoadFile(path)
			if err != nil {
				return err
			}
			for _, t := range srv.Tools {
				origin := rel + " " + t.Name
				add(t.Name, origin+" name")
				add(t.Description, origin+" description")
				add(string(t.InputSchema), origin+" inputSchema")
				for _, f := range []catalog.WireForm{catalog.FormAnthropic, catalog.FormOpenAI, catalog.FormMCP} {
					add(string(t.Bytes(f)), origin+" "+string(f))
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("collect texts: %w", err)
	}
	slices.SortFunc(s.Texts, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return s, nil
}

// jsonStrings calls f with every object key and string value of the JSON
// values in b (one value, or several as in JSON Lines).
func jsonStrings(b []byte, f func(string)) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if s, ok := tok.(string); ok {
			f(s)
		}
	}
}

// cells calls f with every cell of a CSV (or TSV) file.
func cells(b []byte, tsv bool, f func(string)) error {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	if tsv {
		r.Comma = '\t'
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, c := range rec {
			f(c)
		}
	}
}

// Mode chooses how many texts Pick returns.
type Mode int

// Modes of Pick.
const (
	// Default is every text of up to 8 KB and every 8th longer one up to
	// 128 KB.
	Default Mode = iota
	// Short is every 8th text up to 128 KB.
	Short
	// Full is every text, whatever its length.
	Full
	// Sparse is every 32nd text up to 128 KB.
	Sparse
)

// ModeFromEnv returns Full when FullEnv is set to 1, else short (when
// testing.Short) or def.
func ModeFromEnv(short bool, def Mode) Mode {
	switch {
	case os.Getenv(FullEnv) == "1":
		return Full
	case short:
		return Short
	}
	return def
}

// Pick returns the texts mode selects, longest first.
func (s *Set) Pick(mode Mode) []string {
	var out []string
	n, long := 0, 0
	for _, t := range s.Texts {
		switch {
		case mode == Full:
		case len(t) > 128<<10:
			continue
		case mode == Short || mode == Sparse:
			every := 8
			if mode == Sparse {
				every = 32
			}
			if n++; n%every != 1 {
				continue
			}
		case len(t) > 8<<10:
			if long++; long%8 != 1 {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}
