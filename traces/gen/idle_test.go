package gen

import (
	"strings"
	"testing"
)

// TestIdleParametersAreRefused pins that a parameter which changes nothing
// under the others is an error rather than silently ignored (and written
// back into params.yaml as if used): the drift keys when drift.servers is
// 0, schema_bytes_per_token when recorded is false; and that ApplyDriftSpec
// "off" resets the drift keys so --drift off works over any file.
func TestIdleParametersAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(p *Params)
		want string // "" = accepted
	}{
		{"defaults", func(p *Params) {}, ""},
		{"drift off alone", func(p *Params) { p.Drift.Servers = 0 }, ""},
		{"drift off with mid_session", func(p *Params) { p.Drift.Servers = 0; p.Drift.MidSession = 0.5 },
			"drift.mid_session: not used when drift.servers is 0 (no server has a second version); remove it, leave it at its default"},
		{"drift off with two keys", func(p *Params) { p.Drift.Servers = 0; p.Drift.Versions = 4; p.Drift.Kinds.Description = 1 },
			"drift.versions and drift.kinds: not used when drift.servers is 0"},
		{"drift on uses them", func(p *Params) { p.Drift.Versions = 4; p.Drift.MidSession = 0.5 }, ""},
		{"schema_bytes_per_token without recorded", func(p *Params) { p.SchemaBytesPerToken = 3 },
			"schema_bytes_per_token: not used when recorded is false"},
		{"schema_bytes_per_token with recorded", func(p *Params) { p.SchemaBytesPerToken = 3; p.Recorded = true }, ""},
		{"both", func(p *Params) { p.SchemaBytesPerToken = 3; p.Drift.Servers = 0; p.Drift.AddedFraction = 0.5 },
			"remove them, leave them at their defaults"},
		{"long_pause_sec without long pauses", func(p *Params) { p.LongPauseProb = 0; p.LongPauseSec.Median = 900 },
			"long_pause_sec: not used when long_pause_prob is 0"},
		{"long_pause_sec with long pauses", func(p *Params) { p.LongPauseSec.Median = 900 }, ""},
		{"--drift off resets", func(p *Params) {
			p.Drift.Versions, p.Drift.MidSession = 5, 0.3
			if err := ApplyDriftSpec(p, "off"); err != nil {
				t.Fatal(err)
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			p.Sessions = 2
			tc.set(&p)
			_, err := New(p)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// Over a catalog, over.mid_session is idle on the latest schedule.
	latest := overParams(2, 0.5, "notes")
	latest.Over.Schedule = ScheduleLatest
	if _, err := NewOver(testCatalog(t), latest); err == nil || !strings.Contains(err.Error(), "over.mid_session: not used when over.schedule is latest") {
		t.Errorf("latest schedule with mid_session 0.5: err = %v", err)
	}
	latest.Over.MidSession = DefaultOver().MidSession
	if _, err := NewOver(testCatalog(t), latest); err != nil {
		t.Errorf("latest schedule, default mid_session: %v", err)
	}
	// Over a catalog, schema_bytes_per_token is idle without recorded too.
	p := overParams(2, 0, "notes")
	p.SchemaBytesPerToken = 3
	if _, err := NewOver(testCatalog(t), p); err == nil || !strings.Contains(err.Error(), "schema_bytes_per_token: not used") {
		t.Errorf("over a catalog: err = %v", err)
	}
}
