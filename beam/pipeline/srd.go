package pipeline

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/srd"
)

// srdFiles reads the routing description files paths stand for (run's
// --srd, or the scenario's srd:) when one of them is a URL: the runner
// opens local paths only, so the pipeline reads every file here, through
// Beam's filesystems, and gives the runner their bytes
// (runner.Config.SRDFiles). A local path stands for what it stands for in
// `defersim run` (srd.Expand: a file, or a directory's SRD files in name
// order); a URL ending in .yaml, .yml or .json is a file, any other a
// directory, whose SRD files directly in it are read in name order. A
// file named twice is read once. It returns nil when every path is local:
// the runner then reads them as `defersim run` does.
func srdFiles(ctx context.Context, paths []string) ([]runner.SRDFile, error) {
	if !slices.ContainsFunc(paths, isURL) {
		return nil, nil
	}
	var out []runner.SRDFile
	seen := map[string]bool{}
	for _, p := range paths {
		names, err := srdNames(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			key := name
			if !isURL(name) {
				if key, err = filepath.Abs(name); err != nil {
					return nil, fmt.Errorf("load SRDs: %w", err)
				}
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			f, err := readSRD(ctx, name)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// srdNames lists the SRD files path stands for.
func srdNames(ctx context.Context, p string) ([]string, error) {
	if !isURL(p) {
		return srd.Expand(p)
	}
	if srd.IsSRDFile(path.Base(p)) {
		return []string{p}, nil
	}
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("load SRDs: %w", err)
	}
	defer fsys.Close()
	dir := strings.TrimSuffix(p, "/")
	all, err := fsys.List(ctx, dir+"/*")
	if err != nil {
		return nil, fmt.Errorf("load SRDs: list %s: %w", p, err)
	}
	var names []string
	for _, f := range all {
		if srd.IsSRDFile(path.Base(f)) {
			names = append(names, dir+"/"+path.Base(f))
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("load SRDs: no .yaml, .yml or .json files in %s (a URL not ending in one of these names a directory)", p)
	}
	slices.Sort(names)
	return names, nil
}

// readSRD reads at most srd.MaxFileSize+1 bytes of the SRD file name
// (more means it is over the limit, which the runner reports): a local
// one as `defersim run` reads it, a URL through its filesystem.
func readSRD(ctx context.Context, name string) (runner.SRDFile, error) {
	if !isURL(name) {
		data, size, err := srd.ReadLimited(name, srd.MaxFileSize)
		if err != nil {
			return runner.SRDFile{}, fmt.Errorf("load SRD: %w", err)
		}
		return runner.SRDFile{Name: name, Data: data, Size: size}, nil
	}
	r, err := openTrace(ctx, name)
	if err != nil {
		return runner.SRDFile{}, fmt.Errorf("load SRD: %s: %w", name, err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, srd.MaxFileSize+1))
	if err != nil {
		return runner.SRDFile{}, fmt.Errorf("load SRD: %s: %w", name, err)
	}
	return runner.SRDFile{Name: name, Data: data, Size: -1}, nil
}
