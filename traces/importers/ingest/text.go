package ingest

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
)

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	p("imported %s, %s from %s as %s\n", nouns.Count(r.Sessions, "session"), nouns.Count(r.ToolCalls, "tool call"), nouns.Count(len(r.Inputs), "file"), r.Format)
	if r.SkippedLines > 0 {
		p("lines skipped (--skip-bad):\t%d (not valid JSON; each a conversation not imported)\n", r.SkippedLines)
		for _, s := range r.Skipped {
			p("  %s\n", s)
		}
		if more := r.SkippedLines - len(r.Skipped); more > 0 {
			p("  … %d more\n", more)
		}
	}
	if r.Output != "" {
		p("trace:\t%s\n", r.Output)
	}
	p("events:\n")
	for _, t := range traces.KnownEventTypes {
		if n := r.Events[t]; n > 0 {
			p("  %s\t%d\n", t, n)
		}
	}
	if r.RequestsWithoutUsage > 0 {
		p("model requests without usage:\t%d of %d (the source recorded none: run.fidelity does not compare their prompt tokens)\n",
			r.RequestsWithoutUsage, r.Events[traces.ModelRequest])
	}
	if n := r.CallsWithoutArgs - r.CallsArgsUnrecorded; n > 0 {
		p("tool calls without arguments: %d of %d (the source recorded none: a replay checks such a call against a changed schema as {}, so a stale schema's required properties count it malformed)\n",
			n, r.ToolCalls)
	}
	if r.CallsArgsUnrecorded > 0 {
		p("tool calls whose arguments were not recorded: %d of %d (written args_unrecorded: a replay validates none of them against a changed schema, counting them in calls_unchecked, not as valid or malformed)\n",
			r.CallsArgsUnrecorded, r.ToolCalls)
	}
	if r.CallsWithoutResult > 0 {
		p("tool calls without a recorded result: %d of %d (written result_unrecorded: the replay adds no tokens for such a result, so the session's later prompts lack it, and counts them in calls_result_unrecorded)\n",
			r.CallsWithoutResult, r.ToolCalls)
	}
	if r.CutAtOutputLimit > 0 {
		p("replies cut at the output limit:\t%d (stop_reason max_tokens or finish_reason length: their recorded text and output tokens end where the limit cut them; trace v1 has no field for it)\n",
			r.CutAtOutputLimit)
	}
	if len(r.Models) > 0 {
		p("models (model: sessions):\n")
		for _, m := range r.Models {
			name := m.Model
			if name == "" {
				name = "(none recorded)"
			}
			p("  %s\t%d\n", name, m.Sessions)
		}
		if r.ModelsOmitted > 0 {
			p("  … %d more %s\t%d\n", r.ModelsOmitted, nouns.Form(r.ModelsOmitted, "model", "models"), r.ModelsOmittedSessions)
		}
	}
	if len(r.Catalog) > 0 {
		p("catalog (%s):\n", r.CatalogDir)
		for _, c := range r.Catalog {
			p("  %s\t%s%s\tfrom %s\n", c.File, nouns.Count(c.Tools, "tool"), describeMarks(c), strings.Join(c.Sources, ", "))
		}
	} else {
		p("catalog: none written (no tool schemas in the source or --tools): run, recommend and calibrate will need --catalogs DIR for this trace\n")
	}
	if len(r.MissingSchemas) > 0 {
		p("tools called without a schema (server/tool: calls):\n")
		for _, m := range r.MissingSchemas {
			p("  %s/%s\t%d\n", m.Server, m.Tool, m.Calls)
		}
	}
	if len(r.SchemaFidelity) > 0 {
		p("tools called with a schema that is not exact (server/tool: fidelity, calls, why):\n")
		for _, f := range r.SchemaFidelity {
			p("  %s/%s\t%s\t%d\t%s\n", f.Server, f.Tool, f.Fidelity, f.Calls, f.Note)
		}
	}
	if len(r.Rejected) > 0 {
		p("recorded arguments their tool's schema rejects (server@version/tool: failure, calls, status ok):\n")
		accepted := 0
		for _, ra := range r.Rejected {
			p("  %s@%s/%s\t%s\t%s\t%d ok\n", ra.Server, ra.Version, ra.Tool, rejectedWhere(ra), nouns.Count(ra.Calls, "call"), ra.Accepted)
			accepted += ra.Accepted
		}
		if accepted > 0 {
			p("  the server took %s whose arguments the schema rejects: the sessions ran with another schema, most likely another version of the server (a catalog directory gives its latest); give theirs with --tools\n",
				nouns.Count(accepted, "call"))
		}
	}
	section(p, "tool call servers (how determined: calls):", r.Servers)
	if len(r.Ambiguous) > 0 {
		p("tools several servers serve, called without a server (kept on the default server):\n")
		for _, a := range r.Ambiguous {
			p("  %s\t%s\t%d\n", a.Tool, strings.Join(a.Servers, ", "), a.Calls)
		}
	}
	section(p, "gateway meta-tools and search results (what: count):", r.Gateway)
	section(p, "tool results with status error (marked by: count):", r.ErrorResults)
	section(p, "converted (how: count):", r.Converted)
	section(p, "not mapped (source field: count):", r.Unmapped)
	section(p, "credential-bearing fields dropped (field: count):", r.CredentialsDropped)
	section(p, "tool definition members dropped (member: count):", r.ToolDefinitionsDropped)
	if len(r.Notes) > 0 {
		p("notes:\n")
		for _, n := range r.Notes {
			p("  %s\n", n)
		}
	}
	return tw.Flush()
}

func section(p func(string, ...any), title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	p("%s\n", title)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p("  %s\t%d\n", k, m[k])
	}
}

// describeMarks says how many of a catalog file's tools are approximate or
// stand-ins.
func describeMarks(c CatalogFile) string {
	var parts []string
	if c.Approximate > 0 {
		parts = append(parts, fmt.Sprintf("%d approximate", c.Approximate))
	}
	if c.Missing > 0 {
		parts = append(parts, fmt.Sprintf("%d without schema", c.Missing))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// rejectedWhere says how and where the first rejected call failed:
// "missing_required at / (#/required)".
func rejectedWhere(ra RejectedArgs) string {
	at := ra.At
	if at == "" {
		at = "/"
	}
	if ra.Keyword == "" {
		return ra.Class + " at " + at
	}
	return ra.Class + " at " + at + " (" + ra.Keyword + ")"
}
