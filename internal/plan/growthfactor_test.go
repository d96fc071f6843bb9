package plan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
)

// writeCatalogFile writes server name at version with n tools, an MCP
// tools/list file, under dir.
func writeCatalogFile(t *testing.T, dir, name, version string, n int) {
	t.Helper()
	var tools []string
	for i := range n {
		tools = append(tools, fmt.Sprintf(`{"name":"%s_t%d","description":"tool %d of %s","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`, name, i, i, name))
	}
	data := `{"tools":[` + strings.Join(tools, ",") + `]}`
	if err := os.WriteFile(filepath.Join(dir, name+"@"+version+".json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGrowthSaysTheFactorItReplays pins that a growth point labelled by
// the factor asked says the factor it replays: servers are added whole,
// so ×1.2 of a 68-tool catalog, which asks ⌈1.2 × 68⌉ = 82 tools, gets
// the pool's one server of 50 and replays 118 tools, 118/68 = ×1.735
// (44.6% above ×1.2: 1.7353/1.2 = 1.4461). The point said only "×1.2:
// 118 tools", and the breakdowns' sizes read as ×1.2. The factor is
// defined on the tool count (not on schema tokens), so the replayed
// factor is tools over today's tools; a point more than the tolerance
// above its factor carries a note (0.1 by default; at 0.5 it does not).
func TestGrowthSaysTheFactorItReplays(t *testing.T) {
	rc, err := runner.FromScenario(small(t, 5), runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	pool := t.TempDir()
	writeCatalogFile(t, pool, "big", "1.0.0", 50)
	const note = "×1.2 replays ×1.735 of today's 68 tools (118, where ×1.2 asks 82): servers are added whole and the last one added has 50 tools; " +
		"44.6% above the factor asked, more than the growth tolerance 0.1 (--growth-tolerance): read this size's row as ×1.735, not ×1.2"
	half := 0.5
	for _, tc := range []struct {
		name      string
		tolerance *float64
		overshoot bool
		notes     []string
	}{
		{"default tolerance", nil, true, []string{note}},
		{"tolerance 0.5", &half, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 1.2}, Pool: pool, Seed: 1, Dir: t.TempDir(), Tolerance: tc.tolerance})
			if err != nil {
				t.Fatal(err)
			}
			type size struct {
				Factor, Replayed float64
				Tools, BaseTools int
				Overshoot        bool
				Notes            []string
				SizeText         string
			}
			var got []size
			for _, p := range pts {
				got = append(got, size{p.Factor, p.Replayed, p.Tools, p.BaseTools, p.Overshoot, p.Notes, p.SizeText()})
			}
			want := []size{
				{1, 1, 68, 68, false, nil, "6 servers, 68 tools"},
				{1.2, 118.0 / 68, 118, 68, tc.overshoot, tc.notes, "7 servers, 118 tools against today's 68"},
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("growth sizes (-want +got):\n%s", d)
			}
		})
	}
}

// TestGrowthToleranceBounds pins which --growth-tolerance values plan
// takes: a share of the factor from 0 to 1; a negative one, NaN, and a
// share above 1 (most likely a percentage) are refused.
func TestGrowthToleranceBounds(t *testing.T) {
	for _, tc := range []struct {
		tol float64
		err string
	}{
		{0, ""}, {0.1, ""}, {1, ""},
		{-0.1, "--growth-tolerance -0.1: want a share of the factor asked, 0 to 1 (0.1 = flag a size more than 10% above its factor; default 0.1)"},
		{10, "--growth-tolerance 10: a share above 1 flags only sizes more than 11 times their factor: want 0 to 1 (default 0.1); for 10% type 0.1"},
	} {
		msg := ""
		if err := CheckGrowthTolerance("--growth-tolerance", tc.tol); err != nil {
			msg = err.Error()
		}
		if msg != tc.err {
			t.Errorf("%g: error %q, want %q", tc.tol, msg, tc.err)
		}
	}
}

// TestGrowthNotesMixedVersionSchemes pins that plan --growth took the
// latest of a series whose versions mix a date and a release number
// (mixsrv@1.2.0 and mixsrv@2024-09-01: the date reads as release 2024.9.1,
// so it sorts last) as its newest without a word, for the base catalog's
// size and for a server added from --growth-from. Each point now says the
// order is unknown, in catalog diff's words, naming the version taken and
// the series' versions.
func TestGrowthNotesMixedVersionSchemes(t *testing.T) {
	const order = "mix dates and release numbers, whose order is unknown (defersim orders a date as a release number, 2024-09-01 as 2024.9.1, which may not be the release order), so which is newest is unknown"
	baseNote := "the catalog's size counts mixsrv@2024-09-01 (30 tools; versions 1.2.0, 2024-09-01) as the latest: the versions of this server " + order +
		" (sessions that name a version replay that version)"
	poolNote := "added mixsrv@2024-09-01 (versions 1.2.0, 2024-09-01) at the version taken as the latest: the pool's versions of this server " + order
	for _, tc := range []struct {
		name   string
		inBase bool
		want   [][]string // the notes of ×1 and ×1.4
	}{
		{"in the pool", false, [][]string{nil, {poolNote}}},
		{"in the base catalog", true, [][]string{{baseNote}, {baseNote}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := runner.FromScenario(small(t, 5), runner.Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rc.Bootstrap = -1
			dir := t.TempDir()
			writeCatalogFile(t, dir, "mixsrv", "1.2.0", 40)
			writeCatalogFile(t, dir, "mixsrv", "2024-09-01", 30)
			cfg := GrowthConfig{Base: rc, Factors: []float64{1, 1.4}, Seed: 1, Dir: t.TempDir()}
			if tc.inBase {
				// 98 tools; ×1.4 takes generated servers.
				cfg.Base.Catalogs = append(slices.Clone(cfg.Base.Catalogs), runner.Source{Path: dir})
			} else {
				// 30 tools on 68: ×1.4 (96) adds it, 98 tools, ×1.441.
				cfg.Pool = dir
			}
			pts, _, err := Growth(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for _, p := range pts {
				got = append(got, p.Notes)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("notes of ×1, ×1.4 (-want +got):\n%s", d)
			}
		})
	}
}
