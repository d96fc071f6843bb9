package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
	srddata "github.com/defersim/defersim/srd/data"
	"github.com/defersim/defersim/srd/routed"
)

// SRDEmbedded is SRDInfo.Source for the routing descriptions built into
// the binary (srd/data/catalogs).
const SRDEmbedded = "embedded"

// SRDFile is one routing description file a caller read: its name, as
// problems name it (a directory's file is the directory joined with its
// base name, as srd.LoadPaths names it), its first srd.MaxFileSize+1
// bytes, and its size (-1 when not known).
type SRDFile struct {
	Name string
	Data []byte
	Size int64
}

// runSRDs loads the routing descriptions of a run: the files of paths (v1
// or v0.1, linted against the run's catalog: a problem stops the run),
// read from files when the caller read them (Config.SRDFiles), or the
// embedded set when paths is empty. It returns them with their
// description for the results.
func runSRDs(paths []string, files []SRDFile, cat *catalog.Catalog) ([]*srd.SRD, *sim.SRDInfo, error) {
	if len(paths) == 0 {
		srds, err := embeddedSRDs()
		if err != nil {
			return nil, nil, err
		}
		h, err := hashFSFiles(srddata.FS, srddata.Catalogs)
		if err != nil {
			return nil, nil, err
		}
		return srds, &sim.SRDInfo{Source: SRDEmbedded, Embedded: true, Count: len(srds), SHA256: h}, nil
	}
	srds, probs, err := loadSRDs(paths, files)
	if err != nil {
		return nil, nil, err
	}
	// A warning (a group naming a tool only an older version serves) does
	// not stop the run: srd lint says it.
	probs = append(probs, srd.Lint(srds, srd.LintOptions{Catalog: cat})...).Errors()
	if len(probs) > 0 {
		return nil, nil, fmt.Errorf("routing descriptions %s have problems (defersim srd lint --catalogs … shows them all):\n%w",
			strings.Join(paths, ", "), probs.Sort())
	}
	h, err := hashSRDs(paths, files)
	if err != nil {
		return nil, nil, err
	}
	return srds, &sim.SRDInfo{Source: strings.Join(paths, ", "), Count: len(srds), SHA256: h}, nil
}

// loadSRDs reads and parses the SRD files of paths, or parses files when
// the caller read them.
func loadSRDs(paths []string, files []SRDFile) ([]*srd.SRD, srd.Problems, error) {
	if files == nil {
		return srd.LoadPaths(paths)
	}
	var all []*srd.SRD
	var probs srd.Problems
	for _, f := range files {
		s, ps := srd.LoadData(f.Name, f.Data, f.Size)
		all = append(all, s...)
		probs = append(probs, ps...)
	}
	return all, probs, nil
}

// hashSRDs hashes the SRD files of paths (hashSRDPaths), or files when
// the caller read them, in the same way: each file's base name and bytes.
func hashSRDs(paths []string, files []SRDFile) (string, error) {
	if files == nil {
		return hashSRDPaths(paths)
	}
	h := sha256.New()
	for _, f := range files {
		hashFile(h, path.Base(filepath.ToSlash(f.Name)), f.Data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// domainsOf returns the routing domains of srds (for the by-domain
// directory and activation notices).
func domainsOf(srds []*srd.SRD) (sim.Domains, error) {
	set, err := srd.NewSet(srds)
	if err != nil {
		return nil, err
	}
	return srdDomains{set}, nil
}

// describedServers counts the catalog's series (servers, and launch
// variants apart) and those an SRD of srds describes, by the rule routing
// applies (srd.Set.ForServer): a server's SRD describes its launch
// variants too, unless an SRD names the variant (server+variant), which
// then describes it alone.
func describedServers(srds []*srd.SRD, cat *catalog.Catalog) (described, servers int, err error) {
	set, err := srd.NewSet(srds)
	if err != nil {
		return 0, 0, err
	}
	for key := range cat.Versions {
		servers++
		if set.ForServer(key) != nil {
			described++
		}
	}
	return described, servers, nil
}

// dirByDomain is the directory format that groups by routing domain.
const dirByDomain = "by-domain"

// readsSRDs lists the strategies whose search mode or directory reads the
// routing descriptions.
func readsSRDs(strategies []sim.Strategy) []string {
	var out []string
	for _, s := range strategies {
		n := s
		n.Normalize()
		switch {
		case slices.Contains([]string{routed.ModeRouted, routed.ModeRoutedHard, routed.ModeFielded, routed.ModeFused}, n.Search.Mode),
			n.Directory.Format == dirByDomain, n.Directory.Notice:
			out = append(out, s.Name)
		}
	}
	return out
}

// hashFSFiles hashes the SRD files of dir in fsys: each file's base name
// and bytes, in name order.
func hashFSFiles(fsys fs.FS, dir string) (string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return "", fmt.Errorf("hash SRDs: %w", err)
	}
	h := sha256.New()
	for _, e := range entries {
		if e.IsDir() || !srd.IsSRDFile(e.Name()) {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return "", fmt.Errorf("hash SRDs: %w", err)
		}
		hashFile(h, e.Name(), data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashSRDPaths hashes the SRD files paths stand for (as srd.LoadPaths
// reads them: a directory's SRD files in name order).
func hashSRDPaths(paths []string) (string, error) {
	h := sha256.New()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("hash SRDs: %w", err)
		}
		files := []string{p}
		if st.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return "", fmt.Errorf("hash SRDs: %w", err)
			}
			files = files[:0]
			for _, e := range entries {
				if !e.IsDir() && srd.IsSRDFile(e.Name()) {
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
			slices.Sort(files)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", fmt.Errorf("hash SRDs: %w", err)
			}
			hashFile(h, filepath.Base(f), data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile adds a file's name and bytes to h, length-prefixed.
func hashFile(h interface{ Write([]byte) (int, error) }, name string, data []byte) {
	fmt.Fprintf(h, "%d:%s\x00%d:", len(name), name, len(data))
	h.Write(data)
}
