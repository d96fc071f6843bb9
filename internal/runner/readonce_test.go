package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// feedFIFO makes a FIFO at path and writes data into it from a goroutine
// (a FIFO's writer blocks until a reader opens it). The returned channel
// gets the writer's error.
func feedFIFO(t *testing.T, path string, data []byte) <-chan error {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	return done
}

// TestRunReadsTracesOnce pins issue 18.1: a run read each trace twice (once
// to hash it, once to replay it), so a FIFO hung and a process
// substitution replayed 0 sessions. A trace given as a FIFO now gives the
// same results.json, hash included, as the same bytes in a file.
func TestRunReadsTracesOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 20 generated sessions twice")
	}
	cfg := smallConfig(t, shardStrategies[:2], 20)
	want, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.Traces[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "trace.fifo")
	done := feedFIFO(t, fifo, data)
	c := cfg
	c.Traces = []Source{{Path: fifo}}
	got, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("run over a FIFO: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("FIFO writer: %v", err)
	}
	in := got.Results.Run.Inputs[0]
	if in.Path != fifo || in.SHA256 != want.Results.Run.Inputs[0].SHA256 || in.Bytes != int64(len(data)) {
		t.Errorf("FIFO input = %+v, want the file's hash and %d bytes", in, len(data))
	}
	got.Results.Run.Inputs[0].Path = cfg.Traces[0].Path
	if a, b := resultsBytes(t, want), resultsBytes(t, got); !bytes.Equal(a, b) {
		t.Errorf("results over the FIFO differ from those over the file")
	}
}

// TestResumeRefusesChangedTrace pins that a checkpoint, which holds the hash
// of the trace bytes read before it (not of the whole file, which the run
// had not read), refuses a resume over a trace whose first bytes changed.
func TestResumeRefusesChangedTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	cfg := smallConfig(t, shardStrategies[:2], 20)
	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg
	c.AfterSession = func(n int64) {
		if n == 5 {
			cancel()
		}
	}
	_, err := Run(ctx, c)
	cancel()
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Checkpoint == "" {
		t.Fatalf("interrupted run: %v", err)
	}
	sf, err := ReadState(cfg.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.Traces) != 1 || sf.Traces[0].Bytes == 0 || sf.Traces[0].Path != cfg.Traces[0].Path {
		t.Fatalf("checkpoint trace prefixes = %+v", sf.Traces)
	}
	data, err := os.ReadFile(cfg.Traces[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	data[min(len(data), int(sf.Traces[0].Bytes))/2] ^= 0xff
	if err := os.WriteFile(cfg.Traces[0].Path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	_, err = Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "the checkpoint was made by another run: trace "+cfg.Traces[0].Path+" changed since the checkpoint") {
		t.Fatalf("resume over a changed trace: %v", err)
	}
}

// TestInterruptDuringStatistics pins issue 18.4: a signal while the
// statistics ran (the bootstrap) was ignored — with 10^8 resamples the run
// went on long after it. Cancelling the context once every session is
// replayed now stops the bootstrap, saves a checkpoint of the complete
// replay and returns an InterruptedError that says so; a resume computes
// the statistics without replaying, with results identical to an
// uninterrupted run.
func TestInterruptDuringStatistics(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	const n = 20
	cfg := smallConfig(t, shardStrategies[:2], n)
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, boot := range []int{100_000_000, cfg.Bootstrap} {
		c := cfg
		c.Bootstrap = boot
		c.BootstrapMemory = -1 // 100,000,000 resamples exceed the default limit: this test is about the interrupt
		c.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
		ctx, cancel := context.WithCancel(context.Background())
		c.AfterSession = func(k int64) {
			if k == n {
				cancel()
			}
		}
		_, err := Run(ctx, c)
		cancel()
		var ie *InterruptedError
		if !errors.As(err, &ie) || !ie.Statistics || ie.Replayed != n || ie.Checkpoint != c.Checkpoint {
			t.Fatalf("bootstrap %d: error %v (%+v), want an interruption during the statistics with a checkpoint", boot, err, ie)
		}
		if !strings.Contains(err.Error(), "interrupted while computing the statistics, after replaying all 20 sessions") {
			t.Errorf("message %q", err)
		}
		if boot != cfg.Bootstrap {
			continue
		}
		c.Resume, c.AfterSession = true, func(int64) { t.Error("the resume replayed a session") }
		resumed, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(resultsBytes(t, whole), resultsBytes(t, resumed)) {
			t.Error("the resumed run's results differ from the uninterrupted run's")
		}
	}
}
