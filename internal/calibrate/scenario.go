package calibrate

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// ScenarioOptions says how calibrated scenarios are written.
type ScenarioOptions struct {
	// Path is the scenario file to write ("" renders without writing: the
	// scenario then replays the calibration traces, fit sessions included).
	// With several model groups each gets Path with ".MODEL" before its
	// extension.
	Path string
	// Base is the starting scenario's YAML (nil: a fresh scenario replaying
	// with the recorded strategy, eager). Its model block and the fitted
	// params are replaced; every other key is kept.
	Base     []byte
	BaseName string
	// Catalogs are the catalog paths the calibration used; Seed the
	// scenario's seed.
	Catalogs []string
	Seed     int64
	// Inputs are paths a written file must not replace (traces, catalogs,
	// the starting scenario).
	Inputs []string
	// Set, when not nil, receives the files to write: the caller adds its
	// own outputs and commits them all at once. When nil, WriteScenarios
	// writes its files as one set of its own.
	Set *atomicfile.Set
}

// Written is one calibrated scenario.
type Written struct {
	Model    string
	Scenario string // path ("" when only rendered)
	// HeldOut is the trace file of the held-out sessions written beside the
	// scenario ("" when the scenario names the test traces themselves).
	HeldOut string
	YAML    []byte
	// group is the model group whose held-out sessions HeldOut holds.
	group string
}

// WriteScenarios renders, for each calibrated model group, a complete
// scenario that replays the held-out sessions with the calibrated model and
// params; with opt.Path it writes the scenario and, when the held-out
// sessions are a part of a trace file, a trace file holding just them.
// Every rendered scenario is loaded back and checked to carry the
// calibrated model and params.
func WriteScenarios(r *Result, opt ScenarioOptions) ([]Written, error) {
	var fits []*ModelFit
	for _, mf := range r.Models {
		if mf.Latency != nil || mf.Overhead != nil {
			fits = append(fits, mf)
		}
	}
	// Groups of recorded models without a preset share the preset they
	// are calibrated from: their files are then named by the recorded
	// model, not the shared preset.
	perModel := map[string]int{}
	for _, mf := range fits {
		perModel[mf.Model]++
	}
	var names []string
	for _, mf := range fits {
		name := mf.Model
		if perModel[mf.Model] > 1 {
			name = mf.Recorded
		}
		names = append(names, name)
	}
	var parts []string
	if opt.Path != "" && len(fits) > 1 {
		var err error
		if parts, err = fileParts(names); err != nil {
			return nil, err
		}
	}
	var out []Written
	for i, mf := range fits {
		w := Written{Model: mf.Model, group: mf.group}
		if opt.Path != "" {
			w.Scenario = opt.Path
			if len(fits) > 1 {
				ext := filepath.Ext(opt.Path)
				w.Scenario = strings.TrimSuffix(opt.Path, ext) + "." + parts[i] + ext
			}
		}
		dir := "."
		if w.Scenario != "" {
			dir = filepath.Dir(w.Scenario)
		}
		var tracePaths []string
		var traceNote string
		switch {
		case len(r.Test) > 0 && mf.HeldSessions == r.testSessions:
			tracePaths = rel(dir, r.Test)
		case w.Scenario != "":
			w.HeldOut = strings.TrimSuffix(w.Scenario, filepath.Ext(w.Scenario)) + ".held-out.jsonl.gz"
			// Written beside the scenario: named by its base name even when
			// -o is absolute (rel keeps the user's absolute paths).
			tracePaths = []string{filepath.Base(w.HeldOut)}
		default:
			tracePaths = rel(dir, append(append([]string(nil), r.Traces...), r.Test...))
			traceNote = "every session of the traces, fitted-on ones included (-o FILE writes the held-out sessions beside the scenario and names them here)"
		}
		for _, p := range []string{w.Scenario, w.HeldOut} {
			if p != "" && isInput(p, opt.Inputs) {
				return nil, fmt.Errorf("%s is an input of the calibration: write the scenario elsewhere", p)
			}
		}
		// First with the latency set inside the starting model block (its
		// other keys and comments untouched), else with the whole block
		// rewritten; the first that loads back with the calibrated values.
		var doc []byte
		for _, inPlace := range []bool{true, false} {
			d, err := renderScenario(r, mf, opt, tracePaths, rel(dir, opt.Catalogs), traceNote, inPlace)
			if err == nil {
				err = verifyScenario(d, w.Scenario, mf)
			}
			if err == nil {
				doc = d
				break
			}
			if !inPlace {
				return nil, err
			}
		}
		w.YAML = doc
		out = append(out, w)
	}
	if opt.Path == "" {
		return out, nil
	}
	set := opt.Set
	if set == nil {
		set = atomicfile.NewSet()
	}
	for _, w := range out {
		if w.HeldOut != "" {
			if err := writeHeldOut(r, w, set.File(w.HeldOut)); err != nil {
				set.Abort()
				return nil, fmt.Errorf("write held-out sessions: %w", err)
			}
		}
		if err := os.WriteFile(set.File(w.Scenario), w.YAML, 0o644); err != nil {
			set.Abort()
			return nil, fmt.Errorf("write scenario: %w", err)
		}
	}
	if opt.Set == nil {
		if err := set.Commit(nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeHeldOut writes the held-out sessions of w's model group to path.
func writeHeldOut(r *Result, w Written, path string) error {
	src := r.data.source(w.group, false)
	return atomicfile.Write(path, 0o644, func(f *os.File) error {
		tw := traces.NewWriter(f, true)
		for s, err := range heldOut(src) {
			if err != nil {
				return err
			}
			if err := tw.WriteSession(s); err != nil {
				return err
			}
		}
		return tw.Close()
	})
}

// renderScenario builds the scenario YAML: the base scenario with its
// traces, catalogs, model (inPlace: only its latency) and fitted params
// replaced, or a fresh one.
func renderScenario(r *Result, mf *ModelFit, opt ScenarioOptions, tracePaths, catalogs []string, traceNote string, inPlace bool) ([]byte, error) {
	var root yaml.Node
	if opt.Base != nil {
		if err := yaml.Unmarshal(opt.Base, &root); err != nil {
			return nil, fmt.Errorf("%s: %w", opt.BaseName, err)
		}
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		root = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
		m := root.Content[0]
		setKey(m, "name", scalar("calibrated-"+fileSafe(mf.Model)))
		setKey(m, "seed", scalar(fmt.Sprint(opt.Seed)))
	}
	m := root.Content[0]
	m.HeadComment = strings.TrimRight(header(r, mf)+"\n"+m.HeadComment, "\n")
	setKey(m, "traces", strList(tracePaths))
	if traceNote != "" {
		keyNode(m, "traces").HeadComment = traceNote
	}
	setKey(m, "catalogs", strList(catalogs))
	if r := mf.Resolution; r != nil && r.UnresolvedShare() > sim.DefaultMaxUnresolved {
		// The calibration replayed these sessions with the calls that do
		// not resolve left out; a run of the scenario must too, and says
		// so in its resolution table.
		share := math.Ceil(r.UnresolvedShare()*100) / 100
		setKey(m, "max_unresolved", scalar(strconv.FormatFloat(share, 'f', -1, 64)))
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "max_unresolved" {
				m.Content[i].HeadComment = unresolvedNote(r, true)
			}
		}
	}
	if old := keyNode(m, "model"); inPlace && old != nil && old.Kind == yaml.MappingNode && !hasMerge(old) {
		var lat yaml.Node
		if err := lat.Encode(mf.ModelOut.Latency); err != nil {
			return nil, err
		}
		dropUnread(&lat, "latency.", mf.ModelOut)
		setKey(old, "latency", &lat)
	} else {
		mn, err := modelNode(mf.ModelOut)
		if err != nil {
			return nil, err
		}
		setKey(m, "model", mn)
	}
	setParams(m, mf.Params, mf.Overhead != nil, mf.Overhead != nil && mf.Overhead.TokenScaleFitted)
	if keyNode(m, "strategies") == nil {
		setKey(m, "strategies", strList([]string{"eager"}))
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unresolvedNote says how many held-out calls do not resolve and, for a
// group a scenario is written for (written), that it allows that share.
func unresolvedNote(r *sim.Resolution, written bool) string {
	note := fmt.Sprintf("%d of the held-out sessions' %d tool calls (%.1f%%) do not resolve against the catalogs (%s, …):\n"+
		"the calibration replayed them left out", r.Unresolved(), r.Calls, 100*r.UnresolvedShare(), strings.Join(topUnresolved(r), ", "))
	if written && r.UnresolvedShare() > sim.DefaultMaxUnresolved {
		note += ", and a written scenario allows that share (docs/scenarios.md, max_unresolved)"
	}
	return note + "."
}

// modelNode is the model block: the preset and what differs from it, or
// the whole model when it is not a preset; the latency always. Keys the
// model does not read are left out (a scenario that writes one does not
// load): latency.cached_prefill_tps and every cache key under
// cache.kind none.
func modelNode(m sim.Model) (*yaml.Node, error) {
	var full yaml.Node
	if err := full.Encode(m); err != nil {
		return nil, err
	}
	dropUnread(keyNode(&full, "latency"), "latency.", m)
	dropUnread(keyNode(&full, "cache"), "cache.", m)
	out := &yaml.Node{Kind: yaml.MappingNode}
	p, err := presets.Model(m.Name)
	if err != nil || p.Name != m.Name {
		return &full, nil
	}
	var base yaml.Node
	if err := base.Encode(p); err != nil {
		return nil, err
	}
	setKey(out, "preset", scalar(m.Name))
	for i := 0; i+1 < len(full.Content); i += 2 {
		k, v := full.Content[i].Value, full.Content[i+1]
		if k == "name" {
			continue
		}
		if k == "latency" {
			setKey(out, k, v)
			continue
		}
		if d := diffNode(v, keyNode(&base, k)); d != nil {
			setKey(out, k, d)
		}
	}
	return out, nil
}

// dropUnread removes from n, the block of m under prefix ("latency."),
// the keys m does not read (sim.LatencyKeyUnread, sim.Model.CacheKeyUnread).
func dropUnread(n *yaml.Node, prefix string, m sim.Model) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	var kept []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := prefix + n.Content[i].Value
		if sim.LatencyKeyUnread(m, key) != "" || (prefix == "cache." && m.CacheKeyUnread(key) != "") {
			continue
		}
		kept = append(kept, n.Content[i], n.Content[i+1])
	}
	n.Content = kept
}

// readOnly is m with the keys it does not read (dropUnread) set to 0:
// what a written scenario that leaves them out must load back to, up to
// values that change nothing.
func readOnly(m sim.Model) sim.Model {
	if sim.LatencyKeyUnread(m, "latency.cached_prefill_tps") != "" {
		m.Latency.CachedPrefillTPS = 0
	}
	c := reflect.ValueOf(&m.Cache).Elem()
	for i := 0; i < c.NumField(); i++ {
		tag, _, _ := strings.Cut(c.Type().Field(i).Tag.Get("yaml"), ",")
		if tag != "kind" && m.CacheKeyUnread("cache."+tag) != "" {
			c.Field(i).SetZero()
		}
	}
	return m
}

// diffNode returns the parts of v that differ from base (nil: none).
func diffNode(v, base *yaml.Node) *yaml.Node {
	if base == nil || v.Kind != base.Kind {
		return v
	}
	if v.Kind != yaml.MappingNode {
		if v.Value == base.Value {
			return nil
		}
		return v
	}
	out := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if d := diffNode(v.Content[i+1], keyNode(base, v.Content[i].Value)); d != nil {
			setKey(out, v.Content[i].Value, d)
		}
	}
	if len(out.Content) == 0 {
		return nil
	}
	return out
}

// setParams writes the fitted overheads (and the tokenizer they were
// counted with, and its token_scale when fitted or not 1) into the params
// block, keeping its other keys; a params block the writer cannot edit in
// place (an alias, a merge) is replaced by every param.
func setParams(m *yaml.Node, p sim.Params, overhead, scaleFitted bool) {
	if !overhead {
		return
	}
	keys := []struct {
		k, v string
	}{
		{"tokenizer", p.Tokenizer},
		{"request_overhead_tokens", fmt.Sprint(p.RequestOverheadTokens)},
		{"message_overhead_tokens", fmt.Sprint(p.MessageOverheadTokens)},
		{"tool_overhead_tokens", fmt.Sprint(p.ToolOverheadTokens)},
	}
	pn := keyNode(m, "params")
	if pn == nil || pn.Kind != yaml.MappingNode || hasMerge(pn) {
		if pn != nil {
			full := &yaml.Node{}
			if err := full.Encode(p); err == nil {
				setKey(m, "params", full)
				return
			}
		}
		pn = &yaml.Node{Kind: yaml.MappingNode}
		setKey(m, "params", pn)
	}
	if scaleFitted || p.TokenScale != 1 {
		keys = append(keys, struct{ k, v string }{"token_scale", strconv.FormatFloat(p.TokenScale, 'f', -1, 64)})
	}
	for _, kv := range keys {
		setKey(pn, kv.k, scalar(kv.v))
	}
}

func hasMerge(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "<<" || n.Content[i+1].Kind == yaml.AliasNode {
			return true
		}
	}
	return false
}

// verifyScenario loads the rendered scenario back and checks that it
// carries the calibrated model and params.
func verifyScenario(doc []byte, path string, mf *ModelFit) error {
	name := path
	if name == "" {
		name = "calibrated.yaml"
	}
	sc, err := scenarios.Parse(doc, name, filepath.Dir(name))
	if err != nil {
		return fmt.Errorf("the calibrated scenario does not load: %w", err)
	}
	if !reflect.DeepEqual(readOnly(sc.Model), readOnly(mf.ModelOut)) {
		return fmt.Errorf("the calibrated scenario's model %+v is not the calibrated %+v", sc.Model, mf.ModelOut)
	}
	if !reflect.DeepEqual(sc.Params, mf.Params) {
		return fmt.Errorf("the calibrated scenario's params %+v are not the calibrated %+v", sc.Params, mf.Params)
	}
	return nil
}

func keyNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v.HeadComment = m.Content[i+1].HeadComment
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, scalar(key), v)
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func strList(xs []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, x := range xs {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: x, Tag: "!!str"})
	}
	return n
}

// rel returns paths relative to dir where possible (a scenario resolves
// its paths against its own directory).
func rel(dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if filepath.IsAbs(p) || strings.HasPrefix(p, scenarios.EmbeddedPrefix) {
			continue
		}
		ad, err1 := filepath.Abs(dir)
		ap, err2 := filepath.Abs(p)
		if err1 != nil || err2 != nil {
			continue
		}
		if r, err := filepath.Rel(ad, ap); err == nil {
			out[i] = filepath.ToSlash(r)
		}
	}
	return out
}

func isInput(p string, inputs []string) bool {
	ap, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	for _, in := range inputs {
		if ai, err := filepath.Abs(in); err == nil && ai == ap {
			return true
		}
	}
	return false
}
