package tokens

import (
	"fmt"
	"path"
)

// bpeLoader is the loader interface tiktoken-go calls.
type bpeLoader interface {
	LoadTiktokenBpe(file string) (map[string]int, error)
}

// offlineLoader serves rank files only from the assets embedded in
// tiktoken-go-loader. It refuses any file it does not know instead of
// falling back to a download.
type offlineLoader struct {
	inner bpeLoader
}

// embeddedRankFiles are the base names of the rank files the embedded loader holds.
var embeddedRankFiles = map[string]bool{
	"o200k_base.tiktoken":  true,
	"cl100k_base.tiktoken": true,
	"p50k_base.tiktoken":   true,
	"r50k_base.tiktoken":   true,
}

// LoadTiktokenBpe loads the ranks of file (a URL or path; only its base name
// is used) from the embedded assets.
func (l offlineLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	base := path.Base(file)
	if !embeddedRankFiles[base] {
		return nil, fmt.Errorf("offline loader: no embedded rank file %q", base)
	}
	ranks, err := l.inner.LoadTiktokenBpe(base)
	if err != nil {
		return nil, fmt.Errorf("offline loader: %s: %w", base, err)
	}
	return ranks, nil
}
