package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Values of the strategy's enumerated fields.
const (
	TriggerNever   = "never"
	TriggerAlways  = "always"
	TriggerCount   = "count"
	TriggerTokens  = "tokens"
	TriggerPercent = "percent"

	ScopeMCP             = "mcp"
	ScopeAlwaysDeferOnly = "always-defer-only"

	WarmKeyName        = "name"
	WarmKeyFingerprint = "fingerprint"

	EvictLRL = "lrl"
	EvictLRU = "lru"

	InjectToolsArray = "tools-array"
	InjectInline     = "inline"

	SearchSelect = "select"

	DirNone      = "none"
	DirNames     = "names"
	DirNamesDesc = "names-desc"
	DirByServer  = "by-server"
	DirByDomain  = "by-domain"

	RejectRetry   = "retry"
	RejectExecute = "execute"
)

// Defaults Normalize fills into zero fields.
const (
	DefaultCounter       = "bytes/3.5"
	DefaultSearchK       = 5
	DefaultDescChars     = 80
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
		s.Search.Mode = SearchSelect
	}
	if s.Search.K == 0 {
		s.Search.K = DefaultSearchK
	}
	if s.Directory.Format == "" {
		s.Directory.Format = DirNames
	}
	if s.Directory.Format == DirNamesDesc && s.Directory.DescChars == 0 {
		s.Directory.DescChars = DefaultDescChars
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
// a *FieldError naming the field. Fields are checked in declaration order,
// so the error is deterministic.
func (s Strategy) Validate() error {
	if err := validateStrategyName(s.Name); err != nil {
		return err
	}
	if err := s.Trigger.validate(); err != nil {
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
	if s.Trigger.Categorical && len(s.AlwaysDefer) == 0 {
		return fieldErr("trigger.categorical", "true but always_defer is empty (nothing is categorical)")
	}
	if s.Scope == ScopeAlwaysDeferOnly && len(s.AlwaysDefer) == 0 {
		return fieldErr("scope", "%s but always_defer is empty (nothing would be deferrable)", s.Scope)
	}
	if err := s.Warm.validate(); err != nil {
		return err
	}
	if err := oneOf("injection", s.Injection, InjectToolsArray, InjectInline); err != nil {
		return err
	}
	if err := s.Search.validate(); err != nil {
		return err
	}
	if err := s.Directory.validate(); err != nil {
		return err
	}
	if err := oneOf("rejected", s.Rejected, RejectRetry, RejectExecute); err != nil {
		return err
	}
	if err := oneOf("transport", s.Transport, "eager", "lazy"); err != nil {
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

func (t Trigger) validate() error {
	switch t.Mode {
	case TriggerNever, TriggerAlways, TriggerCount, TriggerTokens, TriggerPercent:
	case "":
		return fieldErr("trigger.mode", "missing (want never|always|count|tokens|percent)")
	default:
		return fieldErr("trigger.mode", "unknown mode %q (want never|always|count|tokens|percent)", t.Mode)
	}
	if t.Count < 0 {
		return fieldErr("trigger.count", "%d is negative", t.Count)
	}
	if t.Budget < 0 {
		return fieldErr("trigger.budget", "%d is negative", t.Budget)
	}
	if err := ValidateCounter(t.Counter); err != nil {
		return fieldErr("trigger.counter", "%v", err)
	}
	if math.IsNaN(t.Percent) || t.Percent < 0 || t.Percent > 100 || (t.Mode == TriggerPercent && t.Percent == 0) {
		return fieldErr("trigger.percent", "%v is outside (0,100]", t.Percent)
	}
	return nil
}

// ValidateCounter checks a token counter name without building the
// counter: "o200k_base", "cl100k_base" or "bytes/N" with N > 0.
func ValidateCounter(name string) error {
	switch name {
	case "o200k_base", "cl100k_base":
		return nil
	}
	if rest, ok := strings.CutPrefix(name, "bytes/"); ok {
		n, err := strconv.ParseFloat(rest, 64)
		if err == nil && n > 0 && n <= 1e9 {
			return nil
		}
	}
	return fmt.Errorf("unknown counter %q (want o200k_base|cl100k_base|bytes/N)", name)
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

func (w WarmSet) validate() error {
	if err := oneOf("warm.key", w.Key, WarmKeyName, WarmKeyFingerprint); err != nil {
		return err
	}
	if w.MaxTools < 0 {
		return fieldErr("warm.max_tools", "%d is negative", w.MaxTools)
	}
	if w.MaxTokens < 0 {
		return fieldErr("warm.max_tokens", "%d is negative", w.MaxTokens)
	}
	if err := oneOf("warm.eviction", w.Eviction, EvictLRL, EvictLRU); err != nil {
		return err
	}
	if w.Disabled && (w.MaxTools != 0 || w.MaxTokens != 0) {
		return fieldErr("warm.disabled", "true but warm limits are set (a disabled warm set has no limits)")
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

func (d Directory) validate() error {
	if err := oneOf("directory.format", d.Format, DirNone, DirNames, DirNamesDesc, DirByServer, DirByDomain); err != nil {
		return err
	}
	if d.DescChars < 0 {
		return fieldErr("directory.desc_chars", "%d is negative", d.DescChars)
	}
	return nil
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
