package tokens

import (
	"fmt"
	"sync"
	"unsafe"

	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Tiktoken counts tokens with an OpenAI BPE encoding (o200k_base or
// cl100k_base): the encoding's split pattern (split.go) and merge ranks
// (bpe.go). The ranks come from the files embedded in
// github.com/pkoukk/tiktoken-go-loader: nothing is ever fetched from the
// network. Counts equal tiktoken-go's (Reference) on any text; the tests
// and FuzzCountMatchesReference check it. A Tiktoken is safe for
// concurrent use.
type Tiktoken struct {
	name string
	enc  *bpe
}

// Encodings lists the encoding names NewTiktoken accepts.
var Encodings = []string{"o200k_base", "cl100k_base"}

// splitters are the pre-tokenisers of the encodings.
var splitters = map[string]func(string, int) int{
	"o200k_base":  o200kNext,
	"cl100k_base": cl100kNext,
}

// lazyEncoding is one encoding's ranks, loaded on first use.
type lazyEncoding struct {
	once sync.Once
	enc  *bpe
	err  error
}

// Process-wide state, the one exception to "no global mutable state":
// loading an encoding parses a multi-megabyte rank file into a 200K-entry
// map (hundreds of milliseconds, tens of MB). Every caller in a process
// needs the same immutable ranks, so each encoding is loaded once and
// shared. The map below is never written after initialisation; each entry
// is guarded by its own sync.Once.
var encoders = map[string]*lazyEncoding{
	"o200k_base":  {},
	"cl100k_base": {},
}

// NewTiktoken returns a counter for encoding ("o200k_base" or
// "cl100k_base"). The first call for an encoding in a process loads it
// (offline); later calls share the loaded ranks.
func NewTiktoken(encoding string) (*Tiktoken, error) {
	lazy, ok := encoders[encoding]
	if !ok {
		return nil, fmt.Errorf("tiktoken: unknown encoding %q (known: %v)", encoding, Encodings)
	}
	lazy.once.Do(func() {
		l := offlineLoader{inner: tiktokenloader.NewOfflineLoader()}
		ranks, err := l.LoadTiktokenBpe(encoding + ".tiktoken")
		if err != nil {
			lazy.err = fmt.Errorf("tiktoken: load %s offline: %w", encoding, err)
			return
		}
		lazy.enc = &bpe{ranks: ranks, next: splitters[encoding]}
	})
	if lazy.err != nil {
		return nil, lazy.err
	}
	return &Tiktoken{name: encoding, enc: lazy.enc}, nil
}

// Name returns the encoding name.
func (t *Tiktoken) Name() string { return t.name }

// Count returns the number of BPE tokens of b: tiktoken-go's count of the
// whole text, whatever its length. Special-token markers such as
// "<|endoftext|>" are counted as ordinary text, as an API does for tool
// definitions. Invalid UTF-8 is counted as U+FFFD replacement characters.
// The text is never cut: the pre-tokeniser is linear and a long piece is
// merged through a heap (heapTokens), so the time stays O(n log n).
func (t *Tiktoken) Count(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	// The text is read as a string that shares b's memory instead of a
	// copy: b is only read during the call (Counter's contract), and the
	// counting keeps no part of it (the piece cache copies its keys).
	return int64(t.enc.count(unsafe.String(&b[0], len(b))))
}
