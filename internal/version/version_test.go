package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	tests := []struct {
		name     string
		bi       debug.BuildInfo
		product  string
		contains string
	}{
		{"released module", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0", "defersim v1.4.0 (go1.26.8)"},
		{"checkout with vcs stamp", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}},
			"devel+0123456789ab-dirty", "revision 0123456789abcdef0123 of 2026-01-02T03:04:05Z, modified"},
		// Go 1.24+ stamps a checkout's build with a pseudo-version, as
		// docs/cli.md "Versions" says (it quoted devel+REVISION alone).
		{"checkout, go1.24+ pseudo-version", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261204211316-86a41ab945a5+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "86a41ab945a59d411602541716f7a228a6e2faf4"}, {Key: "vcs.modified", Value: "true"}}},
			"v0.0.0-20261204211316-86a41ab945a5+dirty", "revision 86a41ab945a59d411602541716f7a228a6e2faf4, modified"},
		{"no stamp", debug.BuildInfo{GoVersion: "go1.26.8"}, "(devel)", "defersim (devel) (go1.26.8)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fromBuildInfo(&tt.bi)
			if in.Product != tt.product {
				t.Errorf("product %q, want %q", in.Product, tt.product)
			}
			if in.Go != "go1.26.8" {
				t.Errorf("go %q", in.Go)
			}
			if !strings.Contains(in.String(), tt.contains) {
				t.Errorf("String() = %q, want it to contain %q", in.String(), tt.contains)
			}
		})
	}
}

func TestGetIsStable(t *testing.T) {
	// The same binary must report the same version every time: results.json
	// records it and must stay byte-identical between runs.
	a, b := Get(), Get()
	if a != b || a.Product == "" || a.Go == "" {
		t.Fatalf("Get() = %+v then %+v", a, b)
	}
}
