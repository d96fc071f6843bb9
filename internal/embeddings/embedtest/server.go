// Package embedtest is a fake OpenAI-compatible embeddings endpoint for
// tests: deterministic vectors (hashed bags of the analyzer's terms, so
// texts sharing words are similar) and a count of the requests it served.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/defersim/defersim/sim/search"
)

// Dim is the fake vectors' dimension.
const Dim = 64

// Server is a running fake endpoint.
type Server struct {
	*httptest.Server
	requests atomic.Int64
	texts    atomic.Int64
}

// Requests is how many embedding requests were served.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Texts is how many texts were embedded.
func (s *Server) Texts() int64 { return s.texts.Load() }

// Vector is the fake embedding of text.
func Vector(text string) []float32 {
	v := make([]float32, Dim)
	for _, t := range search.DefaultAnalyzer().Terms(text) {
		h := fnv.New32a()
		h.Write([]byte(t))
		v[h.Sum32()%Dim]++
	}
	v[0] += 0.01 // no zero vector
	return v
}

// New starts a fake endpoint serving POST /v1/embeddings; a request for
// model "fail" gets a 500.
func New() *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.requests.Add(1)
		if req.Model == "fail" {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error": {"message": "model failed"}}`))
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
		}{Object: "list", Model: req.Model}
		// Reply in reverse order: clients must order by index.
		for i := len(req.Input) - 1; i >= 0; i-- {
			out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: Vector(req.Input[i])})
		}
		s.texts.Add(int64(len(req.Input)))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	return s
}
