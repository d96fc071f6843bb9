package tokens_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/tokens"
)

// fullCorpusEnv names the environment variable that makes
// TestCountMatchesReferenceOnSharedData compare every text (see there).
const fullCorpusEnv = "DEFERSIM_TOKENS_FULL"

// sharedTexts returns every distinct text under the real-data folder dir,
// with a label saying where each was first found:
//
//   - every file, whole (JSON, JSON Lines, trajectories, CSV, TSV,
//     Markdown, licences);
//   - every string (object keys and string values) of every file that
//     decodes as a stream of JSON values (JSON and JSON Lines files), and
//     every cell of every CSV and TSV file;
//   - for every catalog file, each tool's name, description, compact input
//     schema and the bytes of each wire form (anthropic, openai, mcp,
//     model-visible).
//
// It also returns the number of files read and of files whose strings
// could not be decoded (counted, so that a test can say so).
func sharedTexts(t *testing.T, dir string) (texts []string, labels map[string]string, files, undecoded int) {
	t.Helper()
	labels = map[string]string{}
	add := func(s, label string) {
		if s == "" {
			return
		}
		if _, ok := labels[s]; !ok {
			labels[s] = label
			texts = append(texts, s)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		add(string(b), rel)
		ext := filepath.Ext(path)
		switch ext {
		case ".json", ".jsonl", ".traj":
			if err := jsonStrings(b, func(s string) { add(s, rel+" (string)") }); err != nil {
				undecoded++
				t.Logf("%s: strings not read: %v", rel, err)
			}
		case ".csv", ".tsv":
			r := csv.NewReader(bytes.NewReader(b))
			r.FieldsPerRecord, r.LazyQuotes = -1, true
			if ext == ".tsv" {
				r.Comma = '\t'
			}
			for {
				rec, err := r.Read()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					undecoded++
					t.Logf("%s: cells not read: %v", rel, err)
					break
				}
				for _, cell := range rec {
					add(cell, rel+" (cell)")
				}
			}
		}
		if strings.HasPrefix(rel, "catalogs"+string(filepath.Separator)) && ext == ".json" && !catalog.IsMetaFile(path) {
			s, err := catalog.LoadFile(path)
			if err != nil {
				return err
			}
			for _, tool := range s.Tools {
				label := rel + " " + tool.Name
				add(tool.Name, label+" name")
				add(tool.Description, label+" description")
				add(string(tool.InputSchema), label+" inputSchema")
				for _, form := range []catalog.WireForm{catalog.FormAnthropic, catalog.FormOpenAI, catalog.FormMCP} {
					add(string(tool.Bytes(form)), label+" "+string(form))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts, labels, files, undecoded
}

// jsonStrings calls f with every object key and string value of the JSON
// values in b (one value, or several as in JSON Lines).
func jsonStrings(b []byte, f func(string)) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if s, ok := tok.(string); ok {
			f(s)
		}
	}
}

// TestCountMatchesReferenceOnSharedData compares Tiktoken with tiktoken-go's
// Encode on the texts under ../shared/data (sharedTexts), each counted
// whole, in both encodings. tiktoken-go takes minutes on all of them, so
// by default it compares every text of up to 8 KB and every 8th longer one
// up to 128 KB (with -short, every 8th text up to 128 KB); with
// DEFERSIM_TOKENS_FULL=1 it compares every text, whatever its length:
//
//	DEFERSIM_TOKENS_FULL=1 go test ./tokens -run TestCountMatchesReferenceOnSharedData -v -timeout 1h
//
// Any difference fails the test with the text's origin. The counter this
// replaced, which cut runs of over 256 bytes without a word break, differed
// on 21 texts (o200k_base) and 20 (cl100k_base) of the full set.
func TestCountMatchesReferenceOnSharedData(t *testing.T) {
	dir := shareddata.Dir(t)
	collect := time.Now()
	texts, labels, files, undecoded := sharedTexts(t, dir)
	t.Logf("collected %d texts in %v", len(texts), time.Since(collect).Round(time.Millisecond))
	full := os.Getenv(fullCorpusEnv) == "1"
	// Longest first, so that the slowest texts start early on both cores.
	slices.SortFunc(texts, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	var picked []string
	long, short := 0, 0
	for _, s := range texts {
		switch {
		case full:
		case len(s) > 128<<10:
			continue
		case testing.Short():
			if short++; short%8 != 1 {
				continue
			}
		case len(s) > 8<<10:
			if long++; long%8 != 1 {
				continue
			}
		}
		picked = append(picked, s)
	}
	var totalBytes int
	for _, s := range picked {
		totalBytes += len(s)
	}
	for _, enc := range tokens.Encodings {
		fast, err := tokens.NewTiktoken(enc)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := tokens.NewReference(enc)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var next, mismatches atomic.Int64
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= len(picked) {
						return
					}
					s := picked[i]
					got, want := fast.Count([]byte(s)), ref.Count([]byte(s))
					if got != want {
						mismatches.Add(1)
						mu.Lock()
						t.Errorf("%s %s (%d bytes, %.40q): %d tokens, tiktoken-go %d", enc, labels[s], len(s), s, got, want)
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		t.Logf("%s: %d of %d distinct texts (%d bytes; %d files whole, %d not decoded into strings), %d mismatches, %v",
			enc, len(picked), len(texts), totalBytes, files, undecoded, mismatches.Load(), time.Since(start).Round(time.Second))
	}
	if !full {
		t.Logf("a subset: set %s=1 to compare all %d texts", fullCorpusEnv, len(texts))
	}
}
