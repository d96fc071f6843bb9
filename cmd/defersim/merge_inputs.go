package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
)

// mergeWhat is what merge asks for, for the messages that refuse an
// argument.
const mergeWhat = "merge reads the output directory of each shard of one run (defersim run --shard I/N -o DIR)"

// shardState returns the path of the shard state (shard.bin) in the shard
// output directory dir. When dir holds none, the error says what dir is —
// a file, an empty directory, a whole run's output, a shard's output
// whose shard.bin is gone, an interrupted run's checkpoint — and what to
// pass instead.
func shardState(dir string) (string, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("merge: %s does not exist; %s", dir, mergeWhat)
	case err != nil:
		return "", fmt.Errorf("merge: %w", err)
	case !fi.IsDir():
		if filepath.Base(dir) == runner.ShardFile {
			return "", fmt.Errorf("merge: %s is a shard's state file: pass its directory, %s", dir, filepath.Dir(dir))
		}
		return "", fmt.Errorf("merge: %s is a file, not a directory; %s", dir, mergeWhat)
	}
	path := filepath.Join(dir, runner.ShardFile)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return path, nil // ReadState names any other problem
	}
	if what := notAShard(dir); what != "" {
		return "", fmt.Errorf("merge: %s has no %s: %s", dir, runner.ShardFile, what)
	}
	return "", fmt.Errorf("merge: %s has no %s and is not a run's output (no results.json, no checkpoint); %s", dir, runner.ShardFile, mergeWhat)
}

// notAShard says what the directory dir, which holds no shard.bin, is
// and what to do with it; "" when it is none of the outputs of a run.
func notAShard(dir string) string {
	if f, err := runner.ReadState(filepath.Join(dir, runner.CheckpointFile)); err == nil {
		resume := fmt.Sprintf("resume it (defersim run with the same scenario and flags and --resume %s)", dir)
		if f.Shard.Whole() {
			return fmt.Sprintf("it holds the checkpoint of an interrupted whole run: %s; a whole run needs no merge", resume)
		}
		return fmt.Sprintf("it holds the checkpoint of shard %s, interrupted: %s, then merge it with the other shards", f.Shard, resume)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("it holds a checkpoint that cannot be read (%v): run that shard again with --shard I/N -o %s", err, dir)
	}
	res, err := report.ReadResults(filepath.Join(dir, report.ResultsFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if entries, rerr := os.ReadDir(dir); rerr == nil && len(entries) == 0 {
			return "it is empty; " + mergeWhat
		}
		return ""
	case err != nil:
		return fmt.Sprintf("its %s cannot be read (%v); %s", report.ResultsFile, err, mergeWhat)
	case res.Run.Shard != nil:
		return fmt.Sprintf("it holds the results of shard %s without its state (removed since?): run that shard again (defersim run --shard %s -o %s)", res.Run.Shard, res.Run.Shard, dir)
	}
	return "it is a whole run's output (its results.json covers every session and needs no merge); " + mergeWhat
}
