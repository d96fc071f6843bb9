package scenarios

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/yamlerr"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// maxFileBytes bounds the size of a scenario file.
const maxFileBytes = 4 << 20

// defaultSeed and defaultModel apply when a scenario does not say.
const (
	defaultSeed  = DefaultSeed
	defaultModel = "claude-sonnet-4.5"
)

// DefaultSeed is the seed of a scenario file that writes none (the
// embedded default writes its own).
const DefaultSeed = 1

//go:embed default.yaml
var defaultYAML []byte

// Default returns the embedded default scenario. Its traces and catalogs
// are EmbeddedPrefix paths into the embedded default data.
func Default() (*Scenario, error) {
	return Parse(defaultYAML, "default.yaml", "")
}

// Load reads and resolves the scenario file at path. Relative trace and
// catalog paths are resolved against the file's directory. Whether those
// paths exist is checked by CheckPaths, after any command-line overrides.
func Load(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", path, err)
	}
	return Parse(data, path, filepath.Dir(path))
}

// Parse resolves a scenario from its YAML text. name is used in error
// messages and as the default scenario name; baseDir is the directory that
// relative trace and catalog paths are resolved against ("" = as written).
func Parse(data []byte, name, baseDir string) (*Scenario, error) {
	return ParseWith(data, name, baseDir, nil)
}

// ParseWith is Parse with component names (strategies' triggers, warm
// sets, injections, directories and search modes, the model's cache, the
// tokenizer and query model) resolved in reg, which may hold components
// beyond the engine's built-ins; nil is Parse.
func ParseWith(data []byte, name, baseDir string, reg *sim.Registry) (*Scenario, error) {
	if len(data) > maxFileBytes {
		return nil, &Error{File: name, Msg: fmt.Sprintf("larger than %d bytes", maxFileBytes)}
	}
	if err := checkEncoding(name, data); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: name, Msg: "empty scenario"}
		}
		return nil, yamlError(name, err, data)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{File: name, Line: extra.Line, Msg: "more than one YAML document (a scenario is one document)"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(name, err, data)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &Error{File: name, Msg: "empty scenario"}
	}
	d := newDecoder(name, &doc, reg)
	s, err := d.scenario(doc.Content[0], name, baseDir)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func yamlError(name string, err error, data []byte) error {
	line, msg := yamlerr.Locate(err, data)
	return &Error{File: name, Line: line, Msg: "YAML syntax: " + msg}
}

// topKeys lists the scenario file's keys in documentation order.
var topKeys = []string{
	"name", "description", "seed", "traces", "catalogs", "catalog_fingerprint", "srd", "max_unresolved", "model", "params",
	"strategies", "matrix", "baseline", "permissions", "servers", "sweep", "check", "assumptions",
}

// catalogFingerprint reads catalog_fingerprint: model (the default, left
// empty when the key is absent) or served.
func (d *decoder) catalogFingerprint(s *Scenario, byKey map[string]pair) error {
	p, ok := byKey["catalog_fingerprint"]
	if !ok {
		return nil
	}
	var text string
	if err := d.decode(p.v, reflect.ValueOf(&text).Elem(), "catalog_fingerprint"); err != nil {
		return err
	}
	scope, err := catalog.ParseFingerprintScope(text)
	if err != nil {
		return d.errAt(p.v, "catalog_fingerprint", "%v", err)
	}
	s.CatalogFingerprint = scope
	return nil
}

func (d *decoder) scenario(root *yaml.Node, name, baseDir string) (*Scenario, error) {
	root, restore, err := d.deref(root, "")
	if err != nil {
		return nil, err
	}
	defer restore()
	if root.Kind != yaml.MappingNode {
		return nil, d.errAt(root, "", "a scenario is a mapping of keys, got %s", describe(root))
	}
	ps, err := d.pairs(root, "")
	if err != nil {
		return nil, err
	}
	byKey := map[string]pair{}
	for _, p := range ps {
		known := false
		for _, k := range topKeys {
			known = known || k == p.key
		}
		if !known {
			return nil, d.errAt(p.k, p.key, "%s", catalog.NearName(p.key, topKeys).WithHint(fmt.Sprintf("unknown key (want %s)", strings.Join(topKeys, "|"))))
		}
		byKey[p.key] = p
	}

	s := &Scenario{
		File:   name,
		Name:   strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)),
		Seed:   defaultSeed,
		Params: presets.DefaultParams(),
	}
	// Plain fields, decoded straight into the scenario.
	plain := []struct {
		key string
		dst any
	}{
		{"name", &s.Name}, {"description", &s.Description}, {"seed", &s.Seed},
		{"traces", &s.Traces}, {"catalogs", &s.Catalogs}, {"srd", &s.SRD}, {"max_unresolved", &s.MaxUnresolved},
		{"params", &s.Params},
		{"baseline", &s.Baseline}, {"permissions", &s.Permissions}, {"servers", &s.Servers},
		{"sweep", &s.Sweep}, {"check", &s.Check}, {"assumptions", &s.Assumptions},
	}
	for _, f := range plain {
		if p, ok := byKey[f.key]; ok {
			if err := d.decode(p.v, reflect.ValueOf(f.dst).Elem(), f.key); err != nil {
				return nil, err
			}
		}
	}
	if s.Name == "" {
		return nil, d.fieldError("name", &sim.FieldError{Field: "name", Msg: "empty"})
	}
	for _, l := range s.pathLists() {
		if err := d.paths(l.field, l.list, baseDir); err != nil {
			return nil, err
		}
	}
	if m := s.MaxUnresolved; m != nil {
		if err := sim.CheckMaxUnresolved(*m); err != nil {
			return nil, d.fieldError("max_unresolved", &sim.FieldError{Msg: err.Error()})
		}
	}
	if err := d.catalogFingerprint(s, byKey); err != nil {
		return nil, err
	}
	if err := d.validateParams(s.Params); err != nil {
		return nil, d.wrap("params", err)
	}
	d.searchToolTokens(&s.Params)

	s.Model, s.ModelPreset, err = d.model(byKey)
	if err != nil {
		return nil, err
	}
	if prefix, err := CheckBounds(s.Model, s.Params); err != nil {
		return nil, d.wrap(prefix, err)
	}
	s.paramsWritten = d.paramsWritten(s.Params)
	s.paramsUnread = paramsUnread(s.Model, s.Params, s.paramsWritten)
	d.modelName = s.Model.Name
	if err := d.strategies(s, byKey); err != nil {
		return nil, err
	}
	s.settings = d.settings
	s.RecommendedFor = d.recommended
	if err := d.baseline(s, byKey); err != nil {
		return nil, err
	}
	if err := d.permissions(s.Permissions); err != nil {
		return nil, err
	}
	if err := d.servers(s.Servers); err != nil {
		return nil, err
	}
	if err := d.sweep(s.Sweep); err != nil {
		return nil, err
	}
	if err := d.check(s.Check); err != nil {
		return nil, err
	}
	for i, a := range s.Assumptions {
		if strings.TrimSpace(a) == "" {
			return nil, d.fieldError(fmt.Sprintf("assumptions[%d]", i), &sim.FieldError{Msg: "empty note"})
		}
	}
	s.lines = d.lines
	s.pathLines = map[string]int{}
	for _, l := range s.pathLists() {
		for i, p := range l.list {
			l.list[i] = resolvePath(baseDir, p)
			s.pathLines[l.list[i]] = d.lines[fmt.Sprintf("%s[%d]", l.field, i)]
		}
	}
	return s, nil
}

// lineFor returns the line of the longest recorded prefix of field.
func (d *decoder) lineFor(field string) int { return lineIn(d.lines, field) }

// lineIn returns the line lines records for the longest recorded prefix of
// field (0: none).
func lineIn(lines map[string]int, field string) int {
	for f := field; f != ""; {
		if l, ok := lines[f]; ok {
			return l
		}
		i := strings.LastIndexAny(f, ".[")
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return 0
}

// fieldError places a validation error at field: fe.Field, when set, is
// relative to field.
func (d *decoder) fieldError(field string, fe *sim.FieldError) *Error {
	full := field
	if fe.Field != "" && fe.Field != field {
		full = join(field, fe.Field)
	}
	return &Error{File: d.file, Line: d.lineFor(full), Field: full, Msg: fe.Msg}
}

// wrap turns a validation error for the value at field into an *Error.
func (d *decoder) wrap(field string, err error) error {
	var fe *sim.FieldError
	if errors.As(err, &fe) {
		return d.fieldError(field, fe)
	}
	return &Error{File: d.file, Line: d.lineFor(field), Field: field, Msg: err.Error()}
}

// model resolves the model key: a preset name, {preset: NAME, ...overrides}
// or a full inline model.
func (d *decoder) model(byKey map[string]pair) (sim.Model, string, error) {
	p, ok := byKey["model"]
	if !ok {
		m, err := presets.Model(defaultModel)
		return m, defaultModel, err
	}
	n, restore, err := d.deref(p.v, "model")
	if err != nil {
		return sim.Model{}, "", err
	}
	defer restore()
	d.lines["model"] = d.lineOf(n)
	var m sim.Model
	preset, presetName := false, ""
	switch n.Kind {
	case yaml.ScalarNode:
		var name string
		if err := d.scalar(n, reflect.ValueOf(&name).Elem(), "model"); err != nil {
			return sim.Model{}, "", err
		}
		if m, err = presets.Model(name); err != nil {
			return sim.Model{}, "", d.errAt(n, "model", "%v", err)
		}
		preset, presetName = true, name
	case yaml.MappingNode:
		ps, err := d.pairs(n, "model")
		if err != nil {
			return sim.Model{}, "", err
		}
		for _, q := range ps {
			if q.key != "preset" {
				continue
			}
			var name string
			if err := d.decode(q.v, reflect.ValueOf(&name).Elem(), "model.preset"); err != nil {
				return sim.Model{}, "", err
			}
			if m, err = presets.Model(name); err != nil {
				return sim.Model{}, "", d.errAt(q.v, "model.preset", "%v", err)
			}
			preset, presetName = true, name
		}
		if err := d.fields(ps, reflect.ValueOf(&m).Elem(), "model", map[string]bool{"preset": true}); err != nil {
			return sim.Model{}, "", err
		}
	default:
		return sim.Model{}, "", d.errAt(n, "model", "want a model preset name or a mapping, got %s", describe(n))
	}
	if err := d.validateModel(m); err != nil {
		return sim.Model{}, "", d.wrap("model", err)
	}
	if err := d.checkModelReads(m, preset); err != nil {
		return sim.Model{}, "", err
	}
	return m, presetName, nil
}

func (d *decoder) baseline(s *Scenario, byKey map[string]pair) error {
	if s.Baseline == "" {
		if p, ok := byKey["baseline"]; ok {
			return d.errAt(p.v, "baseline", "empty")
		}
		s.Baseline = s.Strategies[0].Name
		return nil
	}
	if _, ok := s.Strategy(s.Baseline); !ok {
		return d.errAt(byKey["baseline"].v, "baseline", "no strategy is called %q", s.Baseline)
	}
	return nil
}

func (d *decoder) permissions(p Permissions) error {
	for _, l := range []struct {
		field string
		list  []string
	}{{"permissions.allow", p.Allow}, {"permissions.deny", p.Deny}} {
		for i, pat := range l.list {
			if err := sim.ValidateToolPattern(pat); err != nil {
				return d.fieldError(fmt.Sprintf("%s[%d]", l.field, i), &sim.FieldError{Msg: err.Error()})
			}
		}
	}
	return nil
}

func (d *decoder) servers(servers map[string]Server) error {
	for _, name := range sortedKeys(servers) {
		field := join("servers", name)
		if strings.TrimSpace(name) == "" {
			return d.fieldError(field, &sim.FieldError{Msg: "empty server name"})
		}
		for i, u := range servers[name].Upgrades {
			f := fmt.Sprintf("%s.upgrades[%d]", field, i)
			switch {
			case strings.TrimSpace(u.To) == "":
				return d.fieldError(f+".to", &sim.FieldError{Msg: "missing: the catalog version to upgrade to"})
			case (u.AfterSession == nil) == (u.At == ""):
				return d.fieldError(f, &sim.FieldError{Msg: "give exactly one of after_session and at"})
			case u.AfterSession != nil && *u.AfterSession < 0:
				return d.fieldError(f+".after_session", &sim.FieldError{Msg: fmt.Sprintf("%d is negative", *u.AfterSession)})
			case u.At != "":
				if _, err := u.Time(); err != nil {
					return d.fieldError(f+".at", &sim.FieldError{Msg: err.Error()})
				}
			}
		}
	}
	return nil
}

// maxSweepPoints bounds the number of values a sweep may take.
const maxSweepPoints = 1000

func (d *decoder) sweep(sw *Sweep) error {
	if sw == nil {
		return nil
	}
	if err := checkSweepParam(sw.Param); err != nil {
		return d.fieldError("sweep.param", &sim.FieldError{Msg: err.Error()})
	}
	if !(sw.Step > 0) {
		return d.fieldError("sweep.step", &sim.FieldError{Msg: fmt.Sprintf("%v: want a positive step", sw.Step)})
	}
	if sw.To < sw.From {
		return d.fieldError("sweep.to", &sim.FieldError{Msg: fmt.Sprintf("%v is below from (%v)", sw.To, sw.From)})
	}
	if (sw.To-sw.From)/sw.Step >= maxSweepPoints {
		return d.fieldError("sweep.step", &sim.FieldError{Msg: fmt.Sprintf("gives more than %d points", maxSweepPoints)})
	}
	return nil
}

// checkSweepParam checks that a sweep path names a numeric field.
func checkSweepParam(path string) error {
	root, rest, _ := strings.Cut(path, ".")
	var v reflect.Value
	switch root {
	case "params":
		v = reflect.ValueOf(&sim.Params{}).Elem()
	case "model":
		v = reflect.ValueOf(&sim.Model{}).Elem()
	case "strategy":
		v = reflect.ValueOf(&sim.Strategy{}).Elem()
	default:
		return fmt.Errorf("%q: want params.KEY, model.KEY or strategy.KEY", path)
	}
	if rest == "" {
		return fmt.Errorf("%q names no key", path)
	}
	f, err := fieldByPath(v, rest)
	if err != nil {
		return fmt.Errorf("%q: %v", path, err)
	}
	switch f.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64:
		return nil
	}
	return fmt.Errorf("%q is not a number", path)
}

func (d *decoder) check(c *Check) error {
	if c == nil {
		return nil
	}
	if c.Tolerance < 0 {
		return d.fieldError("check.tolerance", &sim.FieldError{Msg: fmt.Sprintf("%v is negative", c.Tolerance)})
	}
	for _, k := range sortedKeys(c.Metrics) {
		if _, _, err := ParseCheckKey(k); err != nil {
			return d.fieldError(join("check.metrics", k), &sim.FieldError{Msg: err.Error()})
		}
		if c.Metrics[k] < 0 {
			return d.fieldError(join("check.metrics", k), &sim.FieldError{Msg: fmt.Sprintf("%v is negative", c.Metrics[k])})
		}
	}
	for _, k := range sortedKeys(c.Absolute) {
		if _, _, err := ParseCheckKey(k); err != nil {
			return d.fieldError(join("check.absolute", k), &sim.FieldError{Msg: err.Error()})
		}
		if c.Absolute[k] < 0 {
			return d.fieldError(join("check.absolute", k), &sim.FieldError{Msg: fmt.Sprintf("%v is negative", c.Absolute[k])})
		}
	}
	return nil
}
