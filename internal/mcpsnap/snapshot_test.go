//go:build unix

package mcpsnap

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/mcpsnap/fakemcp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// normalizeMeta blanks the fields that change from run to run.
func normalizeMeta(m Meta) Meta {
	m.Command = []string{"<fake>"}
	m.EnvKeys = nil
	m.CapturedAt = "<time>"
	m.Timings = Timings{}
	return m
}

func TestTakeWritesCatalogAndMeta(t *testing.T) {
	tgt, pidFile := fakeTarget(t, fakemcp.ModeOK)
	tgt.Name = "@example/fake-server"
	s, err := Take(context.Background(), tgt, Options{Captures: 3, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	assertNoChildren(t, pidFile)
	if got := len(readPIDs(t, pidFile)["self"]); got != 3 {
		t.Errorf("%d server processes started, want 3 (one per capture)", got)
	}
	m := s.Meta
	if !m.Stable || m.Captures != 3 || m.ToolCount != 7 || m.Pages != 3 {
		t.Errorf("meta: stable %v captures %d tools %d pages %d", m.Stable, m.Captures, m.ToolCount, m.Pages)
	}
	for name, sp := range map[string]Spread{"initialize": m.Timings.Initialize, "tools_list": m.Timings.ToolsList} {
		if len(sp.Samples) != 3 || sp.Min > sp.Median || sp.Median > sp.Max || sp.Min <= 0 {
			t.Errorf("%s spread %+v", name, sp)
		}
	}
	if got, want := s.DefaultFileName(), "example__fake-server@1.2.3.json"; got != want {
		t.Errorf("default file name %q, want %q", got, want)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, s.DefaultFileName())
	metaPath, err := s.WriteFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	// The catalog loads back with the recorded fingerprint, and catalog
	// finds the metadata beside it.
	srv, err := catalog.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Fingerprint != m.Fingerprint || srv.Name != "example__fake-server" || srv.Version != "1.2.3" || len(srv.Meta) == 0 {
		t.Errorf("reloaded %s@%s fingerprint %s meta %d bytes; meta fingerprint %s", srv.Name, srv.Version, srv.Fingerprint, len(srv.Meta), m.Fingerprint)
	}
	back, err := ReadMeta(metaPath)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(m.Fingerprint, back.Fingerprint); d != "" {
		t.Error(d)
	}
	cat, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "fake-ok.json", cat)
	norm, err := normalizeMeta(*back).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "fake-ok.meta.json", norm)
}

func TestTakeDetectsUnstableCatalog(t *testing.T) {
	state := filepath.Join(t.TempDir(), "counter")
	tgt, _ := fakeTarget(t, fakemcp.ModeUnstable, fakemcp.EnvState+"="+state)
	s, err := Take(context.Background(), tgt, Options{Captures: 3, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Meta
	if m.Stable {
		t.Error("stable = true for a server whose tools change on every start")
	}
	if len(m.CaptureFingerprints) != 3 || m.CaptureFingerprints[0] == m.CaptureFingerprints[1] {
		t.Errorf("capture fingerprints %v, want 3 distinct", m.CaptureFingerprints)
	}
	if d := cmp.Diff([]int{7, 7, 7}, m.CaptureToolCounts); d != "" {
		t.Error(d)
	}
}

func TestTakeRejectsDuplicateToolNames(t *testing.T) {
	tgt, pidFile := fakeTarget(t, fakemcp.ModeDuplicate)
	_, err := Take(context.Background(), tgt, Options{Timeout: 20 * time.Second})
	var se *StepError
	if !errorsAs(err, &se) || se.Step != StepToolsList || !strings.Contains(se.Detail, "duplicate tool name") {
		t.Fatalf("error %v, want a tools/list StepError naming the duplicate", err)
	}
	assertNoChildren(t, pidFile)
}

func TestTakeStopsAtFailedCapture(t *testing.T) {
	tgt, _ := fakeTarget(t, fakemcp.ModeExitEarly)
	_, err := Take(context.Background(), tgt, Options{Captures: 2, Timeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "capture 1 of 2") || !strings.Contains(err.Error(), "step initialize") {
		t.Fatalf("error %v", err)
	}
}

// TestTakeStreamableHTTP captures a Go SDK server that the test serves on
// loopback over streamable HTTP, paginated.
func TestTakeStreamableHTTP(t *testing.T) {
	var protoHeaders []string
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return fakemcp.NewSDKServer(2) }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if !bytes.Contains(body, []byte(`"method":"initialize"`)) {
				protoHeaders = append(protoHeaders, r.Header.Get("Mcp-Protocol-Version"))
			}
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	tgt := Target{Name: "fake-http", URL: srv.URL}
	s, err := Take(context.Background(), tgt, Options{Captures: 2, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Meta
	if m.Transport != "streamable-http" || m.URL != srv.URL || m.ToolCount != 7 || m.Pages != 4 || !m.Stable {
		t.Errorf("meta: transport %s url %s tools %d pages %d stable %v", m.Transport, m.URL, m.ToolCount, m.Pages, m.Stable)
	}
	if m.ProtocolVersion != DefaultProtocolVersion {
		t.Errorf("protocol version %q", m.ProtocolVersion)
	}
	if !strings.Contains(string(m.ServerInfo), "fake-sdk-server") {
		t.Errorf("server info %s", m.ServerInfo)
	}
	// Every request after initialize names the negotiated version.
	if len(protoHeaders) != 2*5 { // per capture: initialized + 4 pages
		t.Errorf("%d POSTs after initialize, want 10", len(protoHeaders))
	}
	for i, h := range protoHeaders {
		if h != DefaultProtocolVersion {
			t.Errorf("POST %d after initialize carried Mcp-Protocol-Version %q", i+1, h)
		}
	}
}

func TestTakeHTTPUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	_, err := Take(context.Background(), Target{Name: "gone", URL: url}, Options{Timeout: 5 * time.Second})
	var se *StepError
	if err == nil || !errorsAs(err, &se) || se.Step != StepInitialize {
		t.Fatalf("error %v, want an initialize StepError", err)
	}
	// Issue 18.8: this read "the server answered with error -32005", though
	// nothing answered.
	if se.Failure != FailConnect || !strings.Contains(se.Detail, "cannot reach "+url) ||
		!strings.Contains(se.Detail, "connection refused") || strings.Contains(err.Error(), "-32005") {
		t.Errorf("closed port reported as %s: %v", se.Failure, err)
	}
}
