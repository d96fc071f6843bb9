package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/sim"
)

// pathList is one of the scenario's lists of input paths, by its key.
type pathList struct {
	field string
	list  []string
}

// pathLists are the scenario's input path lists, relative to its file:
// traces, catalogs and routing descriptions.
func (s *Scenario) pathLists() []pathList {
	return []pathList{{"traces", s.Traces}, {"catalogs", s.Catalogs}, {"srd", s.SRD}}
}

// resolvePath makes p relative to the scenario file's directory (embedded
// and absolute paths, and URLs of a filesystem — gs://…, s3://…, for the
// Beam pipeline — are kept).
func resolvePath(baseDir, p string) string {
	if strings.HasPrefix(p, EmbeddedPrefix) || filepath.IsAbs(p) || baseDir == "" || strings.Contains(p, "://") {
		return p
	}
	return filepath.Join(baseDir, p)
}

// paths checks a path list: no empty path, no path twice.
func (d *decoder) paths(field string, list []string, baseDir string) error {
	seen := map[string]int{}
	for i, p := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		if strings.TrimSpace(p) == "" {
			return d.fieldError(f, &sim.FieldError{Msg: "empty path"})
		}
		r := filepath.Clean(resolvePath(baseDir, p))
		if j, dup := seen[r]; dup {
			return d.fieldError(f, &sim.FieldError{Msg: fmt.Sprintf("%q repeats %s[%d]", p, field, j)})
		}
		seen[r] = i
	}
	return nil
}

// CheckPaths reports the first trace, catalog or SRD path that does not exist.
// Embedded paths are not checked.
func (s *Scenario) CheckPaths() error {
	for _, l := range s.pathLists() {
		for i, p := range l.list {
			if strings.HasPrefix(p, EmbeddedPrefix) {
				continue
			}
			if _, err := os.Stat(p); err != nil {
				field := fmt.Sprintf("%s[%d]", l.field, i)
				if line, ok := s.pathLines[p]; ok {
					return &Error{File: s.File, Line: line, Field: field, Msg: fmt.Sprintf("%s: no such file or directory", p)}
				}
				return fmt.Errorf("%s: %s: no such file or directory", field, p)
			}
		}
	}
	return nil
}
