package embeddings

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/embeddings/embedtest"
)

// TestCacheSecondRunNoRequest pins the cache: a second client over the
// same cache folder embeds the same texts without a request.
func TestCacheSecondRunNoRequest(t *testing.T) {
	srv := embedtest.New()
	defer srv.Close()
	dir := t.TempDir()
	texts := []string{"send an email", "read a file", "send an email", "list rooms"}
	c, err := New(Options{URL: srv.URL + "/v1", Model: "m", CacheDir: dir, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	// Three distinct texts in batches of two: two requests.
	if srv.Requests() != 2 || srv.Texts() != 3 || c.Requests() != 2 {
		t.Errorf("first run: %d requests, %d texts", srv.Requests(), srv.Texts())
	}
	for i, v := range first {
		if !cmp.Equal(v, embedtest.Vector(texts[i])) {
			t.Errorf("text %d: vector not the server's (reply order?)", i)
		}
	}
	again, err := New(Options{URL: srv.URL + "/v1/embeddings", Model: "m", CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	second, err := again.Embed(texts)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Requests() != 2 || again.Requests() != 0 {
		t.Errorf("second run made %d requests", srv.Requests()-2)
	}
	if !cmp.Equal(first, second) {
		t.Error("cached vectors differ")
	}
	// Another model is another key.
	other, _ := New(Options{URL: srv.URL + "/v1", Model: "m2", CacheDir: dir})
	if _, err := other.Embed(texts[:1]); err != nil || srv.Requests() != 3 {
		t.Errorf("other model: err %v, %d requests", err, srv.Requests())
	}
}

func TestClientErrors(t *testing.T) {
	srv := embedtest.New()
	defer srv.Close()
	c, _ := New(Options{URL: srv.URL + "/v1", Model: "fail"})
	if _, err := c.Embed([]string{"x"}); err == nil || !strings.Contains(err.Error(), "model failed") || c.Err() == nil {
		t.Errorf("failing model: %v", err)
	}
	bad, _ := New(Options{URL: srv.URL + "/nowhere", Model: "m"})
	if _, err := bad.Embed([]string{"x"}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("wrong path: %v", err)
	}
	for _, o := range []Options{{URL: "", Model: "m"}, {URL: srv.URL, Model: ""}, {URL: "ftp://x", Model: "m"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestCacheRefusesTruncatedFile(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	if err := c.Put("m", "t", []float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	v, err := c.Get("m", "t")
	if err != nil || !cmp.Equal(v, []float32{1, 2}) {
		t.Fatalf("Get = %v, %v", v, err)
	}
	if v, err := c.Get("m", "absent"); v != nil || err != nil {
		t.Errorf("absent: %v %v", v, err)
	}
	if err := os.WriteFile(c.path("m", "t"), []byte{1, 2, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("m", "t"); err == nil {
		t.Error("a 3-byte vector file was read")
	}
}
