package tokens

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Reference counts tokens with tiktoken-go itself (its regex pre-tokeniser
// and BPE) on the whole text. It is the yardstick Tiktoken is tested
// against, and is many times slower. A Reference is safe for
// concurrent use.
type Reference struct {
	name string
	enc  *tiktoken.Tiktoken
}

// Process-wide state, as for encoders: tiktoken-go keeps its BPE loader in a
// package variable (tiktoken.SetBpeLoader is process-global), so the offline
// loader is installed once; each encoder is built once and shared.
var (
	loaderOnce  sync.Once
	refEncoders = map[string]*lazyReference{"o200k_base": {}, "cl100k_base": {}}
)

type lazyReference struct {
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
}

// NewReference returns tiktoken-go's counter for encoding ("o200k_base" or
// "cl100k_base"), loaded offline.
func NewReference(encoding string) (*Reference, error) {
	lazy, ok := refEncoders[encoding]
	if !ok {
		return nil, fmt.Errorf("tiktoken reference: unknown encoding %q (known: %v)", encoding, Encodings)
	}
	loaderOnce.Do(func() {
		tiktoken.SetBpeLoader(offlineLoader{inner: tiktokenloader.NewOfflineLoader()})
	})
	lazy.once.Do(func() {
		lazy.enc, lazy.err = tiktoken.GetEncoding(encoding)
		if lazy.err != nil {
			lazy.err = fmt.Errorf("tiktoken reference: load %s offline: %w", encoding, lazy.err)
		}
	})
	if lazy.err != nil {
		return nil, lazy.err
	}
	return &Reference{name: encoding, enc: lazy.enc}, nil
}

// Name returns the encoding name.
func (t *Reference) Name() string { return t.name }

// Count returns the length of tiktoken-go's Encode of the whole text b,
// with no special token allowed or disallowed (markers count as ordinary
// text, as in Tiktoken). tiktoken-go's byte-pair merge is quadratic in the
// length of a pre-tokenised piece: a text with a piece of tens of
// kilobytes (a run of CJK characters, a line of '=') takes seconds to
// minutes.
func (t *Reference) Count(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	return int64(len(t.enc.Encode(string(b), nil, nil)))
}
