// Package embeddings fetches text embeddings from an OpenAI-compatible
// /embeddings endpoint (OpenAI, a local Ollama, llama.cpp server, TEI or
// vLLM) and caches them on disk, keyed by model and text hash, so that a
// second run over the same texts makes no request.
package embeddings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultBatch is how many texts one request carries.
const DefaultBatch = 64

// maxResponse bounds an endpoint's reply (256 MiB).
const maxResponse = 256 << 20

// Client embeds texts through an endpoint, with a disk cache in front.
// It is safe for concurrent use.
type Client struct {
	url, model, apiKey string
	http               *http.Client
	batch              int
	cache              *Cache

	mu   sync.RWMutex
	mem  map[string][]float32 // text → vector, this run
	err  error                // the first failure
	reqs int                  // requests made
}

// Options configure a Client.
type Options struct {
	// URL is the endpoint: a base URL ("http://localhost:11434/v1", to
	// which "/embeddings" is added) or the full /embeddings URL.
	URL string
	// Model is the model name sent with every request (and part of the
	// cache key).
	Model string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// CacheDir holds the cache ("": no disk cache).
	CacheDir string
	// Batch is how many texts a request carries (0: DefaultBatch).
	Batch int
	// Timeout bounds one request (0: one minute).
	Timeout time.Duration
}

// New returns a client; nothing is sent until texts are embedded.
func New(o Options) (*Client, error) {
	if o.URL == "" || o.Model == "" {
		return nil, fmt.Errorf("embeddings: an endpoint URL and a model name are both needed")
	}
	if !strings.HasPrefix(o.URL, "http://") && !strings.HasPrefix(o.URL, "https://") {
		return nil, fmt.Errorf("embeddings: URL %q is not http(s)", o.URL)
	}
	u := strings.TrimRight(o.URL, "/")
	if !strings.HasSuffix(u, "/embeddings") {
		u += "/embeddings"
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	c := &Client{url: u, model: o.Model, apiKey: o.APIKey, http: &http.Client{Timeout: o.Timeout}, batch: o.Batch, mem: map[string][]float32{}}
	if o.CacheDir != "" {
		c.cache = &Cache{Dir: o.CacheDir}
	}
	return c, nil
}

// Requests returns how many requests the client has sent.
func (c *Client) Requests() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.reqs
}

// Err returns the first failure of Embed, for callers that rank through
// interfaces without errors.
func (c *Client) Err() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.err
}

func (c *Client) fail(err error) error {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
	return err
}

// Embed returns the embedding of each text, from memory, the disk cache or
// the endpoint (missing texts in batches), in the order given.
func (c *Client) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var miss []string
	c.mu.RLock()
	for i, t := range texts {
		out[i] = c.mem[t]
	}
	c.mu.RUnlock()
	seen := map[string]bool{}
	for i, t := range texts {
		if out[i] != nil {
			continue
		}
		if c.cache != nil {
			v, err := c.cache.Get(c.model, t)
			if err != nil {
				return nil, c.fail(err)
			}
			if v != nil {
				out[i] = v
				c.remember(t, v)
				continue
			}
		}
		if !seen[t] {
			seen[t] = true
			miss = append(miss, t)
		}
	}
	for start := 0; start < len(miss); start += c.batch {
		part := miss[start:min(start+c.batch, len(miss))]
		vecs, err := c.request(part)
		if err != nil {
			return nil, c.fail(err)
		}
		for j, t := range part {
			c.remember(t, vecs[j])
			if c.cache != nil {
				if err := c.cache.Put(c.model, t, vecs[j]); err != nil {
					return nil, c.fail(err)
				}
			}
		}
	}
	if len(miss) > 0 {
		c.mu.RLock()
		for i, t := range texts {
			if out[i] == nil {
				out[i] = c.mem[t]
			}
		}
		c.mu.RUnlock()
	}
	return out, nil
}

func (c *Client) remember(t string, v []float32) {
	c.mu.Lock()
	c.mem[t] = v
	c.mu.Unlock()
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// request embeds one batch.
func (c *Client) request(texts []string) ([][]float32, error) {
	body, err := json.Marshal(request{Model: c.model, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	c.mu.Lock()
	c.reqs++
	c.mu.Unlock()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("embeddings: %s: %w", c.url, err)
	}
	if len(data) > maxResponse {
		return nil, fmt.Errorf("embeddings: %s: reply larger than %d bytes", c.url, maxResponse)
	}
	var r response
	jerr := json.Unmarshal(data, &r)
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(data[:min(len(data), 200)]))
		if jerr == nil && r.Error != nil {
			msg = r.Error.Message
		}
		return nil, fmt.Errorf("embeddings: %s: %s: %s", c.url, resp.Status, msg)
	}
	if jerr != nil {
		return nil, fmt.Errorf("embeddings: %s: reply is not an embeddings response: %w", c.url, jerr)
	}
	return vectors(r, len(texts))
}

// vectors orders a reply's embeddings by index and checks them.
func vectors(r response, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, fmt.Errorf("embeddings: %d embeddings for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	dim := -1
	for _, d := range r.Data {
		switch {
		case d.Index < 0 || d.Index >= n || out[d.Index] != nil:
			return nil, fmt.Errorf("embeddings: index %d out of range or repeated", d.Index)
		case len(d.Embedding) == 0:
			return nil, errors.New("embeddings: an empty embedding")
		case dim >= 0 && len(d.Embedding) != dim:
			return nil, fmt.Errorf("embeddings: dimensions %d and %d in one reply", dim, len(d.Embedding))
		}
		dim = len(d.Embedding)
		out[d.Index] = d.Embedding
	}
	return out, nil
}
