package gen

import (
	"strings"
	"testing"
)

func TestApplyDriftSpec(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		wantErr string
		check   func(d DriftParams) bool
	}{
		{spec: "off", check: func(d DriftParams) bool { return d.Servers == 0 }},
		{spec: "servers=5,versions=4", check: func(d DriftParams) bool { return d.Servers == 5 && d.Versions == 4 }},
		{spec: "mid=0.5, changed=0.2", check: func(d DriftParams) bool {
			return d.MidSession == 0.5 && d.ChangedFraction == 0.2 && d.Servers == Defaults().Drift.Servers
		}},
		{spec: "added=0.1,removed=0", check: func(d DriftParams) bool { return d.AddedFraction == 0.1 && d.RemovedFraction == 0 }},
		{spec: "", wantErr: "empty"},
		{spec: "servers", wantErr: "not key=value"},
		{spec: "servers=x", wantErr: "servers"},
		{spec: "speed=3", wantErr: "unknown key"},
	} {
		p := Defaults()
		err := ApplyDriftSpec(&p, tc.spec)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want %q", tc.spec, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !tc.check(p.Drift) {
			t.Errorf("%q: err %v, drift %+v", tc.spec, err, p.Drift)
		}
	}
}

func FuzzApplyDriftSpec(f *testing.F) {
	for _, s := range []string{"off", "servers=2,versions=3", "mid=0.1", "changed=1e-3,added=.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p := Defaults()
		if err := ApplyDriftSpec(&p, spec); err != nil {
			return
		}
		_ = p.Validate() // may reject values; must not panic
	})
}
