package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/defersim/defersim/component"
)

// Names of the built-in components and values of the strategy's
// enumerated fields (exported where presets and other packages name them).
const (
	TriggerNever   = "never"
	TriggerAlways  = "always"
	TriggerCount   = "count"
	TriggerTokens  = "tokens"
	TriggerPercent = "percent"
	TriggerAnyCold = "any-cold"

	ScopeMCP             = "mcp"
	ScopeAlwaysDeferOnly = "always-defer-only"

	WarmKeyName        = "name"
	warmKeyFingerprint = "fingerprint"

	EvictLRL = "lrl"
	evictLRU = "lru"

	warmClearNever          = "never"
	WarmClearRegistryChange = "registry-change"

	InjectToolsArray = "tools-array"
	InjectInline     = "inline"

	searchSelect = "select"

	triggerCategorical = "categorical"

	dirNone      = "none"
	DirNames     = "names"
	dirNamesDesc = "names-desc"
	dirByServer  = "by-server"
	dirByDomain  = "by-domain"

	RejectRetry   = "retry"
	RejectExecute = "execute"
)

// Defaults Normalize fills into zero fields.
const (
	DefaultCounter       = "bytes/3.5"
	defaultSearchK       = 5
	defaultDescChars     = 80
	MaxSearchK           = 10000
	maxStrategyNameBytes = 128
)

// FieldError is a validation error about one field, named by its path in
// scenario-file spelling ("trigger.mode", "warm.max_tools").
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Normalize fills the documented defaults into zero-valued fields:
// scope mcp, trigger.counter bytes/3.5, warm.key name, warm.eviction lrl,
// injection tools-array, search.mode select, search.k 5, directory.format
// names (desc_chars 80 for names-desc), rejected retry. It never changes a
// field that is already set.
func (s *Strategy) Normalize() {
	if s.Scope == "" {
		s.Scope = ScopeMCP
	}
	if s.Trigger.Counter == "" {
		s.Trigger.Counter = DefaultCounter
	}
	if s.Warm.Key == "" {
		s.Warm.Key = WarmKeyName
	}
	if s.Warm.Eviction == "" {
		s.Warm.Eviction = EvictLRL
	}
	if s.Injection == "" {
		s.Injection = InjectToolsArray
	}
	if s.Search.Mode == "" {
		s.Search.Mode = searchSelect
	}
	if s.Search.K == 0 {
		s.Search.K = defaultSearchK
	}
	if s.Directory.Format == "" {
		s.Directory.Format = DirNames
	}
	if s.Directory.Format == dirNamesDesc && s.Directory.DescChars == 0 {
		s.Directory.DescChars = defaultDescChars
	}
	if s.Rejected == "" {
		s.Rejected = RejectRetry
	}
	if s.Transport == "" {
		s.Transport = "eager"
	}
	if s.Discovery == "" {
		s.Discovery = "eager"
	}
}

// Validate reports the first impossible value of a normalized strategy as
// a *FieldError naming the field, with component names resolved against
// the built-in components (search modes are checked when the engine is
// built, against its registry). Fields are checked in declaration order,
// so the error is deterministic.
func (s Strategy) Validate() error { return builtins.validateStrategy(s, false) }

// ValidateStrategy is Strategy.Validate with every component name,
// search modes included, resolved in r.
func (r *Registry) ValidateStrategy(s Strategy) error { return r.validateStrategy(s, true) }

func (r *Registry) validateStrategy(s Strategy, modes bool) error {
	if err := validateStrategyName(s.Name); err != nil {
		return err
	}
	if err := r.validateTrigger(s.Trigger); err != nil {
		return err
	}
	if err := oneOf("scope", s.Scope, ScopeMCP, ScopeAlwaysDeferOnly); err != nil {
		return err
	}
	if err := validatePatterns("always_defer", s.AlwaysDefer); err != nil {
		return err
	}
	if err := validatePatterns("never_defer", s.NeverDefer); err != nil {
		return err
	}
	for i, p := range s.NeverDefer {
		for _, q := range s.AlwaysDefer {
			if p == q {
				return fieldErr(fmt.Sprintf("never_defer[%d]", i), "%q is also in always_defer", p)
			}
		}
	}
	if (s.Trigger.Categorical || s.Trigger.Mode == triggerCategorical) && len(s.AlwaysDefer) == 0 {
		return fieldErr("trigger.categorical", "true but always_defer is empty (nothing is categorical)")
	}
	if s.Scope == ScopeAlwaysDeferOnly && len(s.AlwaysDefer) == 0 {
		return fieldErr("scope", "%s but always_defer is empty (nothing would be deferrable)", s.Scope)
	}
	if err := r.validateWarm(s.Warm); err != nil {
		return err
	}
	if _, ok := r.lookup(component.Injection, s.Injection); !ok {
		return r.unknown("injection", component.Injection, s.Injection)
	}
	if err := s.Search.validate(); err != nil {
		return err
	}
	if _, ok := r.lookup(component.Ranker, s.Search.Mode); modes && !ok {
		return r.unknown("search.mode", component.Ranker, s.Search.Mode)
	}
	if err := r.validateDirectory(s.Directory); err != nil {
		return err
	}
	if err := oneOf("rejected", s.Rejected, RejectRetry, RejectExecute); err != nil {
		return err
	}
	if err := oneOf("transport", s.Transport, "eager", "lazy"); err != nil {
		return err
	}
	if err := checkLayout("cache_layout", s.CacheLayout); err != nil {
		return err
	}
	return oneOf("discovery", s.Discovery, "eager", "cached", "lazy")
}

func validateStrategyName(name string) error {
	if name == "" {
		return fieldErr("name", "missing")
	}
	if len(name) > maxStrategyNameBytes {
		return fieldErr("name", "longer than %d bytes", maxStrategyNameBytes)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("-_.+=:/@", r)
		if !ok {
			return fieldErr("name", "%q: use letters, digits and - _ . + = : / @ only", name)
		}
	}
	return nil
}

func (r *Registry) validateTrigger(t Trigger) error {
	if _, ok := r.lookup(component.Trigger, t.Mode); !ok {
		return r.unknown("trigger.mode", component.Trigger, t.Mode)
	}
	if t.Count < 0 {
		return fieldErr("trigger.count", "%d is negative", t.Count)
	}
	if t.Budget < 0 {
		return fieldErr("trigger.budget", "%d is negative", t.Budget)
	}
	if err := r.checkCounter(t.Counter); err != nil {
		return fieldErr("trigger.counter", "%v", err)
	}
	if math.IsNaN(t.Percent) || t.Percent < 0 || t.Percent > 100 {
		return fieldErr("trigger.percent", "%v is outside (0,100]", t.Percent)
	}
	_, err := r.trigger(t)
	return err
}

// ValidateToolPattern checks one tool pattern as matched by the engine: an
// exact name, a prefix ending in "*", optionally scoped by "server:".
func ValidateToolPattern(p string) error {
	if strings.TrimSpace(p) == "" {
		return fmt.Errorf("empty pattern")
	}
	if strings.ContainsAny(p, " \t\r\n") {
		return fmt.Errorf("pattern %q contains white space", p)
	}
	if strings.HasPrefix(p, ":") {
		return fmt.Errorf("pattern %q has an empty server name", p)
	}
	if i := strings.IndexByte(p, '*'); i >= 0 && i != len(p)-1 {
		return fmt.Errorf("pattern %q: \"*\" is allowed only at the end", p)
	}
	return nil
}

func validatePatterns(field string, list []string) error {
	seen := make(map[string]bool, len(list))
	for i, p := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		if err := ValidateToolPattern(p); err != nil {
			return fieldErr(f, "%v", err)
		}
		if seen[p] {
			return fieldErr(f, "%q listed twice", p)
		}
		seen[p] = true
	}
	return nil
}

func (r *Registry) validateWarm(w WarmSet) error {
	if _, ok := r.lookup(component.Keying, w.Key); !ok {
		return r.unknown("warm.key", component.Keying, w.Key)
	}
	if w.MaxTools < 0 {
		return fieldErr("warm.max_tools", "%d is negative", w.MaxTools)
	}
	if w.MaxTokens < 0 {
		return fieldErr("warm.max_tokens", "%d is negative", w.MaxTokens)
	}
	if w.Counter != "" {
		if err := r.checkCounter(w.Counter); err != nil {
			return fieldErr("warm.counter", "%v", err)
		}
		if w.MaxTokens == 0 {
			return fieldErr("warm.counter", "%s but warm.max_tokens is not set (the counter counts nothing)", w.Counter)
		}
	}
	if _, ok := r.lookup(component.Eviction, w.Eviction); !ok {
		return r.unknown("warm.eviction", component.Eviction, w.Eviction)
	}
	if w.Disabled && (w.MaxTools != 0 || w.MaxTokens != 0) {
		return fieldErr("warm.disabled", "true but warm limits are set (a disabled warm set has no limits)")
	}
	if w.Clear != "" {
		if err := oneOf("warm.clear", w.Clear, warmClearNever, WarmClearRegistryChange); err != nil {
			return err
		}
		if w.Disabled && w.Clear != warmClearNever {
			return fieldErr("warm.clear", "%s but warm.disabled is true (there is no warm set to clear)", w.Clear)
		}
	}
	return nil
}

func (s Search) validate() error {
	if !validModeName(s.Mode) {
		return fieldErr("search.mode", "%q is not a mode name (lower-case letters, digits, - and _)", s.Mode)
	}
	if s.K < 1 || s.K > MaxSearchK {
		return fieldErr("search.k", "%d is outside [1,%d]", s.K, MaxSearchK)
	}
	if err := validatePatterns("search.family", s.Family); err != nil {
		return err
	}
	for i, f := range s.Family {
		if !strings.HasSuffix(f, "*") {
			return fieldErr(fmt.Sprintf("search.family[%d]", i), "%q is not a prefix family (end it with \"*\")", f)
		}
	}
	if err := validatePatterns("search.family_core", s.FamilyCore); err != nil {
		return err
	}
	for i, c := range s.FamilyCore {
		if strings.HasSuffix(c, "*") {
			return fieldErr(fmt.Sprintf("search.family_core[%d]", i), "%q: core tools are exact names", c)
		}
	}
	if len(s.Family) > 0 && len(s.FamilyCore) == 0 {
		return fieldErr("search.family_core", "empty but search.family is set")
	}
	if len(s.FamilyCore) > 0 && len(s.Family) == 0 {
		return fieldErr("search.family", "empty but search.family_core is set")
	}
	if s.KeywordRetries < 0 {
		return fieldErr("search.keyword_retries", "%d is negative", s.KeywordRetries)
	}
	return nil
}

func validModeName(m string) bool {
	if m == "" || len(m) > 64 {
		return false
	}
	for _, r := range m {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func (r *Registry) validateDirectory(d Directory) error {
	if _, ok := r.lookup(component.Directory, d.Format); !ok {
		return r.unknown("directory.format", component.Directory, d.Format)
	}
	if d.DescChars < 0 {
		return fieldErr("directory.desc_chars", "%d is negative", d.DescChars)
	}
	_, err := r.directory(d, nil)
	return err
}

func oneOf(field, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if v == "" {
		return fieldErr(field, "missing (want %s)", strings.Join(allowed, "|"))
	}
	return fieldErr(field, "unknown value %q (want %s)", v, strings.Join(allowed, "|"))
}
