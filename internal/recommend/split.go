package recommend

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/traces"
)

// HeldOut reports whether the session id was held apart for validation
// (by the proposal's seed and test share), as the rules and the
// validation split the sessions.
func (p *Proposal) IsHeldOut(id string) bool { return isHeldOut(p.Seed, id, p.TestShare) }

// WriteSplit writes the sessions of srcs on one side of p's split — the
// held-out ones (heldOut true), which the validation replays, or the
// training ones — to stage as a trace, in the order read (file by file, as
// a run reads them), and returns how many it wrote. out is the path the
// file will have: a .gz suffix gzips it, and a session_start's relative
// "catalog" meta (traces.MetaCatalog) is re-pointed from it to the same
// directory, so the file finds the catalogs its sessions named; where no
// relative path leads there (traces.CatalogRef) the meta is dropped and
// warn, when set, says what run will need.
func WriteSplit(stage, out string, srcs []runner.Source, p *Proposal, heldOut bool, warn func(string)) (n int, err error) {
	f, err := os.Create(stage)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	tw := traces.NewWriter(f, strings.HasSuffix(out, ".gz"))
	read := runner.SessionsByPath(srcs, traces.ReadOptions{})
	for _, src := range srcs {
		for s, err := range read(src.Path) {
			if err != nil {
				return n, err
			}
			if p.IsHeldOut(s.ID) != heldOut {
				continue
			}
			if src.FS == nil {
				repointCatalog(s, src.Path, out, warned(warn))
			}
			if err := tw.WriteSession(s); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, tw.Close()
}

// warned is warn called once per message (nil: none).
func warned(warn func(string)) func(string) {
	said := map[string]bool{}
	return func(msg string) {
		if warn != nil && !said[msg] {
			said[msg] = true
			warn(msg)
		}
	}
}

// repointCatalog rewrites the relative "catalog" meta of s's session_start,
// relative to the trace at from, to the same directory relative to out;
// when no relative path leads there it drops the meta and warns.
func repointCatalog(s *traces.Session, from, out string, warn func(string)) {
	for i := range s.Events {
		ev := &s.Events[i]
		ref := ev.Meta()[traces.MetaCatalog]
		if ev.Type != traces.SessionStart || ref == "" || filepath.IsAbs(filepath.FromSlash(ref)) {
			continue
		}
		meta := maps.Clone(ev.Meta())
		dir := filepath.Join(filepath.Dir(from), filepath.FromSlash(ref))
		if rel, err := traces.CatalogRef(out, dir); err == nil {
			meta[traces.MetaCatalog] = rel
		} else {
			delete(meta, traces.MetaCatalog)
			warn(fmt.Sprintf("%s names no catalog (%v): run --traces %s will need --catalogs %s", out, err, out, dir))
		}
		sf := *ev.StartFields
		sf.Meta = meta
		ev.StartFields = &sf
	}
}
