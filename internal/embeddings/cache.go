package embeddings

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/defersim/defersim/internal/atomicfile"
)

// Cache stores embeddings on disk: Dir/MODEL/AB/TEXT.f32, where MODEL is
// the first 16 hex digits of the SHA-256 of the model name, TEXT the
// SHA-256 of the text (AB its first two digits) and the file the vector's
// float32 values, little-endian. Files are written atomically, so
// concurrent runs sharing a cache never read a partial vector.
type Cache struct {
	Dir string
}

func (c *Cache) path(model, text string) string {
	m := sha256.Sum256([]byte(model))
	t := sha256.Sum256([]byte(text))
	th := hex.EncodeToString(t[:])
	return filepath.Join(c.Dir, hex.EncodeToString(m[:8]), th[:2], th+".f32")
}

// Get returns the cached vector of text under model, or nil.
func (c *Cache) Get(model, text string) ([]float32, error) {
	data, err := os.ReadFile(c.path(model, text))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("embeddings cache: %w", err)
	}
	if len(data) == 0 || len(data)%4 != 0 {
		return nil, fmt.Errorf("embeddings cache: %s: %d bytes is not a vector of float32", c.path(model, text), len(data))
	}
	v := make([]float32, len(data)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return v, nil
}

// Put stores the vector of text under model.
func (c *Cache) Put(model, text string, v []float32) error {
	p := c.path(model, text)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("embeddings cache: %w", err)
	}
	data := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
	}
	if err := atomicfile.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("embeddings cache: %w", err)
	}
	return nil
}

// DefaultDir is the cache folder under the user's cache directory
// ("" when there is none).
func DefaultDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "defersim", "embeddings")
}
