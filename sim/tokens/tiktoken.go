package tokens

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Tiktoken counts tokens with an OpenAI BPE encoding (o200k_base or
// cl100k_base). The BPE ranks come from the files embedded in
// github.com/pkoukk/tiktoken-go-loader: nothing is ever fetched from the
// network. A Tiktoken is safe for concurrent use.
type Tiktoken struct {
	name string
	enc  *tiktoken.Tiktoken
}

// Encodings lists the encoding names NewTiktoken accepts.
var Encodings = []string{"o200k_base", "cl100k_base"}

// lazyEncoding is one encoder, built on first use.
type lazyEncoding struct {
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
}

// Process-wide state, the one exception to "no global mutable state":
//
//   - tiktoken-go keeps its BPE loader in a package variable
//     (tiktoken.SetBpeLoader is process-global), so installing the offline
//     loader is done exactly once, guarded by loaderOnce.
//   - Building an encoder parses a multi-megabyte rank file and builds
//     200K-entry maps (hundreds of milliseconds, tens of MB). Every caller in
//     a process needs the same immutable encoder, so each is built once and
//     shared. The map below is never written after initialisation; each entry
//     is guarded by its own sync.Once.
var (
	loaderOnce sync.Once
	encoders   = map[string]*lazyEncoding{
		"o200k_base":  {},
		"cl100k_base": {},
	}
)

// installOfflineLoader points tiktoken-go at the embedded rank files.
func installOfflineLoader() {
	loaderOnce.Do(func() {
		tiktoken.SetBpeLoader(offlineLoader{inner: tiktokenloader.NewOfflineLoader()})
	})
}

// NewTiktoken returns a counter for encoding ("o200k_base" or
// "cl100k_base"). The first call for an encoding in a process loads it
// (offline); later calls share the loaded encoder.
func NewTiktoken(encoding string) (*Tiktoken, error) {
	lazy, ok := encoders[encoding]
	if !ok {
		return nil, fmt.Errorf("tiktoken: unknown encoding %q (known: %v)", encoding, Encodings)
	}
	installOfflineLoader()
	lazy.once.Do(func() {
		enc, err := tiktoken.GetEncoding(encoding)
		if err != nil {
			lazy.err = fmt.Errorf("tiktoken: load %s offline: %w", encoding, err)
			return
		}
		lazy.enc = enc
	})
	if lazy.err != nil {
		return nil, lazy.err
	}
	return &Tiktoken{name: encoding, enc: lazy.enc}, nil
}

// Name returns the encoding name.
func (t *Tiktoken) Name() string { return t.name }

// Count returns the number of BPE tokens of b. Special-token markers such as
// "<|endoftext|>" are counted as ordinary text, as an API does for tool
// definitions. Invalid UTF-8 is counted as U+FFFD replacement characters.
// Long inputs are counted in chunks so that the time stays linear in
// len(b) (see chunks).
func (t *Tiktoken) Count(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	if len(b) <= maxRun {
		return int64(len(t.enc.EncodeOrdinary(string(b))))
	}
	var n int64
	chunks(b, func(c []byte) { n += int64(len(t.enc.EncodeOrdinary(string(c)))) })
	return n
}
