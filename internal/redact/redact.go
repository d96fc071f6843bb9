// Package redact finds secrets of known shapes in text — provider API keys,
// bearer and basic credentials, private keys, passwords in URLs, JSON Web
// Tokens — and masks them. Matching uses RE2 (linear time), so hostile input
// cannot make it slow.
package redact

import (
	"regexp"
	"slices"
	"strings"
)

// Kind names a shape of secret.
type Kind string

// The shapes Find recognises.
const (
	APIKey      Kind = "api_key"
	BearerToken Kind = "bearer_token"
	BasicAuth   Kind = "basic_auth"
	PrivateKey  Kind = "private_key"
	URLPassword Kind = "url_password"
	JWT         Kind = "jwt"
)

// Match is one secret found in a string: s[Start:End] is the secret itself
// (for a URL, only its password).
type Match struct {
	Start, End int
	Kind       Kind
}

// pattern is one shape; group is the submatch that is the secret (0: all).
type pattern struct {
	kind  Kind
	re    *regexp.Regexp
	group int
}

// patterns are the shapes, most specific first. A key must start at a word
// boundary so that "task-…" is not read as "sk-…".
var patterns = []pattern{
	{PrivateKey, regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`), 0},
	{URLPassword, regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#:@]*:([^\s/?#@]+)@`), 1},
	{BearerToken, regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`), 1},
	{BasicAuth, regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{12,}={0,2})`), 1},
	{JWT, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0},
	{APIKey, regexp.MustCompile(`\b(?:` +
		`sk-[A-Za-z0-9_-]{16,}` + // OpenAI, Anthropic (sk-ant-…), DeepSeek, …
		`|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}` + // Stripe
		`|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}` + // GitHub
		`|glpat-[A-Za-z0-9_-]{20,}` + // GitLab
		`|xox[abposr]-[A-Za-z0-9-]{10,}` + // Slack
		`|(?:AKIA|ASIA)[0-9A-Z]{16}` + // AWS access key ids
		`|AIza[0-9A-Za-z_-]{35}` + // Google
		`|hf_[A-Za-z0-9]{30,}` + // Hugging Face
		`)`), 0},
}

// Find returns the secrets in s, ordered by position, without overlaps (the
// first and longest wins).
func Find(s string) []Match {
	var out []Match
	for _, p := range patterns {
		for _, loc := range p.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := loc[2*p.group], loc[2*p.group+1]
			if start < 0 || start == end {
				continue
			}
			out = append(out, Match{Start: start, End: end, Kind: p.kind})
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	kept := out[:0]
	end := 0
	for _, m := range out {
		if m.Start < end {
			continue
		}
		kept = append(kept, m)
		end = m.End
	}
	return kept
}

// Contains reports whether s holds a secret of a known shape.
func Contains(s string) bool {
	for _, p := range patterns {
		if p.re.MatchString(s) {
			return true
		}
	}
	return false
}

// String returns s with every secret replaced by "[REDACTED:kind]".
func String(s string) string {
	ms := Find(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.Start])
		b.WriteString("[REDACTED:" + string(m.Kind) + "]")
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}
