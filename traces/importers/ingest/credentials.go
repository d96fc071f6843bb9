package ingest

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/redact"
)

// credentialWords are fragments that mark a member name as holding a secret
// (compared on the name lower-cased with '-', '_' and '.' removed).
var credentialWords = []string{"apikey", "secret", "password", "passwd", "privatekey",
	"credential", "authorization", "cookie"}

// tokenPrefixes are what may precede "token" in a member name that holds one
// ("access_token", "x-auth-token"); "max_tokens" and the like are counts.
var tokenPrefixes = []string{"access", "auth", "xauth", "refresh", "id", "session", "bearer",
	"api", "github", "gh", "hf", "slack", "oauth", "personalaccess", "pat", "bot", "client",
	"csrf", "xsrf", "security"}

func normKey(key string) string {
	return strings.NewReplacer("-", "", "_", "", ".", "", " ", "").Replace(strings.ToLower(key))
}

// IsCredentialKey reports whether a member named key holds a credential.
func IsCredentialKey(key string) bool {
	k := normKey(key)
	if k == "auth" {
		return true
	}
	for _, w := range credentialWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	if base, ok := strings.CutSuffix(k, "token"); ok {
		if base == "" {
			return true
		}
		for _, p := range tokenPrefixes {
			if strings.HasSuffix(base, p) {
				return true
			}
		}
	}
	return false
}

// IsCredentialBlock reports whether a member named key is a block that
// commonly carries credentials as a whole (HTTP headers, environment
// variables); such blocks are dropped entirely.
func IsCredentialBlock(key string) bool {
	k := normKey(key)
	switch k {
	case "env", "environ", "envvars", "environment", "environmentvariables":
		return true
	}
	return strings.HasSuffix(k, "headers")
}

// LooksLikeSecret reports whether a string value has the form of a credential
// (provider API keys, bearer tokens), or holds one anywhere (a password in a
// URL, a private key: internal/redact's shapes), whatever the member is called.
func LooksLikeSecret(s string) bool {
	if redact.Contains(s) {
		return true
	}
	s = strings.TrimSpace(s)
	for _, p := range []string{"sk-", "sk_live_", "sk_test_", "ghp_", "gho_", "github_pat_", "xoxb-", "xoxp-", "AKIA", "AIza"} {
		if strings.HasPrefix(s, p) && len(s) >= len(p)+16 && !strings.ContainsAny(s, " \n") {
			return true
		}
	}
	low := strings.ToLower(s)
	return strings.HasPrefix(low, "bearer ") || strings.HasPrefix(low, "basic ") && len(s) > 16
}

// IsCredential reports whether the member key with string value val must be
// dropped.
func IsCredential(key, val string) bool {
	return IsCredentialKey(key) || IsCredentialBlock(key) || LooksLikeSecret(val)
}

// FlattenMeta copies the leaves of the JSON object raw into meta under
// prefix (nested members are joined with '.'; arrays are kept as compact
// JSON). Credential-bearing members are dropped and counted in rep under
// field (the member's generic path in the source).
func FlattenMeta(meta map[string]string, prefix, field string, raw json.RawMessage, rep *Report) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		if !IsEmpty(raw) {
			SetMeta(meta, prefix, field, raw, rep)
		}
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if IsCredentialKey(k) || IsCredentialBlock(k) {
			if !IsEmpty(v) {
				rep.DropCredential(field + "." + k)
			}
			continue
		}
		t := strings.TrimSpace(string(v))
		if len(t) > 0 && t[0] == '{' {
			FlattenMeta(meta, prefix+"."+k, field+"."+k, v, rep)
			continue
		}
		SetMeta(meta, prefix+"."+k, field+"."+k, v, rep)
	}
}

// SetMeta stores one JSON value in meta[key] as a string (strings as is,
// other values as compact JSON), unless it is empty or looks like a secret
// (then it is dropped and counted under field).
func SetMeta(meta map[string]string, key, field string, v json.RawMessage, rep *Report) {
	if IsEmpty(v) {
		return
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		s = string(Compact(v))
	}
	if LooksLikeSecret(s) {
		rep.DropCredential(field)
		return
	}
	meta[key] = s
}

// FormatFloat renders a float for meta without needless digits.
func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ScanCredentials walks the JSON value raw (found at field) and counts every
// credential-bearing member inside it as dropped. Use it on source parts the
// import does not carry over, so the report still says they held secrets.
func ScanCredentials(field string, raw json.RawMessage, rep *Report) {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return
	}
	switch t[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if IsEmpty(m[k]) {
				continue
			}
			if IsCredentialKey(k) || IsCredentialBlock(k) {
				rep.DropCredential(field + "." + k)
				continue
			}
			ScanCredentials(field+"."+k, m[k], rep)
		}
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return
		}
		for _, v := range a {
			ScanCredentials(field+"[]", v, rep)
		}
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil && LooksLikeSecret(s) {
			rep.DropCredential(field)
		}
	}
}
