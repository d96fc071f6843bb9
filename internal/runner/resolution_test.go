package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestUnresolvedMoreCountsEveryTool pins that the stop message and the
// report count every unresolved tool in "… (N more)", not only the 20 the
// results list: 25 unknown tools named 5 at a time leave 20 more.
func TestUnresolvedMoreCountsEveryTool(t *testing.T) {
	r := &sim.Resolution{Calls: 100, Resolved: 40, UnknownTool: 60, Tools: map[sim.ToolClass]int64{}}
	for i := range 25 {
		r.Tools[sim.ToolClass{Server: "s", Tool: fmt.Sprintf("t%02d", i), Class: sim.ClassUnknownTool}] = int64(1 + i%3)
	}
	r.Tools[sim.ToolClass{Server: "s", Tool: "approx", Class: sim.ClassSchemaApproximate}] = 1
	info := SummarizeResolution(r, DefaultMaxUnresolved, false, nil)
	if len(info.TopUnresolved) != topResolutionTools || info.UnresolvedTools != 25 || info.NotExactTools != 1 {
		t.Fatalf("listed %d, counted %d unresolved and %d not exact tools; want 20, 25 and 1",
			len(info.TopUnresolved), info.UnresolvedTools, info.NotExactTools)
	}
	msg := (&UnresolvedError{Resolution: info}).Error()
	if !strings.Contains(msg, "60 of 100 tool calls (60.0%)") || !strings.Contains(msg, "… (20 more)") {
		t.Errorf("stop message %q, want 60 of 100 calls and (20 more)", msg)
	}
	var b strings.Builder
	if err := report.WriteResolution(&b, info); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "… (15 more)") {
		t.Errorf("terminal table names 10 of 25 tools but does not say 15 more:\n%s", b.String())
	}
}
