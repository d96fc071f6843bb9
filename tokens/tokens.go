// Package tokens counts tokens of the bytes a runtime sends to a model:
// real BPE tokenizers (tiktoken o200k_base / cl100k_base, loaded offline)
// and the anchor runtime's bytes/3.5 estimator, behind one interface.
package tokens

// Counter counts the tokens of a byte string. Implementations are safe for
// concurrent use.
type Counter interface {
	// Name identifies the counter in reports ("o200k_base", "cl100k_base", "bytes/3.5").
	Name() string
	// Count returns the number of tokens in b. It reads b only during the
	// call and never keeps it: callers reuse their buffers.
	Count(b []byte) int64
}
