package gen

import (
	"fmt"
	"os"
	"path/filepath"
)

// Regenerate reads DIR/params.yaml and rewrites the generated files of DIR
// from it (catalog files no longer generated are removed). It is how the
// embedded default data set is rebuilt (go generate ./scenarios/default).
func Regenerate(dir string) (*Summary, error) {
	data, err := os.ReadFile(filepath.Join(dir, ParamsFile))
	if err != nil {
		return nil, fmt.Errorf("read parameters: %w", err)
	}
	p, err := ParseParams(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ParamsFile), err)
	}
	g, err := New(p)
	if err != nil {
		return nil, err
	}
	return g.WriteDir(dir, WriteOptions{Clean: true})
}
