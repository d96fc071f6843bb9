package redact

import (
	"strings"
	"testing"
)

// The secrets below are made-up strings of the right shape, not credentials.
func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text", "open the ticket about the task-runner", "open the ticket about the task-runner"},
		{"openai key", "key sk-proj-EXAMPLEexample0000EXAMPLE here", "key [REDACTED:api_key] here"},
		{"anthropic key", "sk-ant-api03-EXAMPLE_example-0000", "[REDACTED:api_key]"},
		{"short sk- is a word", "see sk-learn docs", "see sk-learn docs"},
		{"sk inside a word", "task-EXAMPLEexampleEXAMPLE00", "task-EXAMPLEexampleEXAMPLE00"},
		{"stripe", "sk_live_EXAMPLEexample0000", "[REDACTED:api_key]"},
		{"github", "token=ghp_EXAMPLEexampleEXAMPLE0000", "token=[REDACTED:api_key]"},
		{"github pat", "github_pat_EXAMPLE_example_EXAMPLE", "[REDACTED:api_key]"},
		{"slack", "xoxb-0000-EXAMPLE", "[REDACTED:api_key]"},
		{"aws", "AKIAEXAMPLEEXAMPLE00", "[REDACTED:api_key]"},
		{"google", "AIza" + strings.Repeat("E", 35), "[REDACTED:api_key]"},
		{"bearer", "Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [REDACTED:bearer_token]"},
		{"bearer lower case", "bearer EXAMPLEtoken0", "bearer [REDACTED:bearer_token]"},
		{"bearer word in prose", "the bearer of bad news", "the bearer of bad news"},
		{"basic", "Basic dXNlcjpwYXNzd29yZA==", "Basic [REDACTED:basic_auth]"},
		{"url password", "postgres://admin:hunter2@db.example:5432/x", "postgres://admin:[REDACTED:url_password]@db.example:5432/x"},
		{"url without password", "https://user@example.com/a:b@c", "https://user@example.com/a:b@c"},
		{"url with port, no user", "http://example.com:8080/x", "http://example.com:8080/x"},
		{"two urls", "a://u:p1@h b://v:p2@i", "a://u:[REDACTED:url_password]@h b://v:[REDACTED:url_password]@i"},
		{"private key", "k=-----BEGIN RSA PRIVATE KEY-----\nMIIEXAMPLE\n-----END RSA PRIVATE KEY-----;", "k=[REDACTED:private_key];"},
		{"private key cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blb", "[REDACTED:private_key]"},
		{"public key kept", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.EXAMPLEsig00", "[REDACTED:jwt]"},
		{"overlap: key in url password", "https://u:sk-EXAMPLEexampleEXAMPLE0@h", "https://u:[REDACTED:url_password]@h"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if got, want := Contains(tc.in), tc.in != tc.want; got != want {
				t.Errorf("Contains(%q) = %v, want %v", tc.in, got, want)
			}
		})
	}
}

func TestFindPositions(t *testing.T) {
	s := "x Bearer tok12345678 y sk-EXAMPLEexampleEXAMPLE0"
	got := Find(s)
	if len(got) != 2 || s[got[0].Start:got[0].End] != "tok12345678" || got[0].Kind != BearerToken ||
		s[got[1].Start:got[1].End] != "sk-EXAMPLEexampleEXAMPLE0" || got[1].Kind != APIKey {
		t.Errorf("Find(%q) = %+v", s, got)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "Bearer abcdefghij", "a://u:p@h", "-----BEGIN PRIVATE KEY-----", "sk-" + strings.Repeat("a", 20)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if Contains(out) && !strings.Contains(s, "[REDACTED:") {
			// A redaction can join text into a new secret only in contrived
			// cases; it must never leave one of the secrets it found.
			for _, m := range Find(s) {
				if strings.Contains(out, s[m.Start:m.End]) && m.End-m.Start > 12 {
					t.Fatalf("String(%q) = %q still holds %q", s, out, s[m.Start:m.End])
				}
			}
		}
		if len(Find(s)) == 0 && out != s {
			t.Fatalf("String changed %q without a match: %q", s, out)
		}
	})
}
