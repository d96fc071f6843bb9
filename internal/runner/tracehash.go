package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/defersim/defersim/sim"
)

// HashTraces describes each trace source as a run's results do (kind
// "trace", path, SHA-256 and size of the file's bytes), reading each to its
// end once. A source that cannot be read twice must be made Rereadable
// first.
func HashTraces(srcs []Source) ([]sim.Input, error) {
	out := make([]sim.Input, 0, len(srcs))
	for _, s := range srcs {
		f, err := s.open()
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("hash trace %s: %w", s.Path, err)
		}
		out = append(out, TraceInput(s.Path, hex.EncodeToString(h.Sum(nil)), n))
	}
	return out, nil
}
