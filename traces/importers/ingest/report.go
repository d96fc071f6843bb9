package ingest

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/traces"
)

// Report says what an import produced and what it could not carry over.
type Report struct {
	Format     string   `json:"format"`
	Inputs     []string `json:"inputs"`
	Output     string   `json:"output,omitempty"`
	CatalogDir string   `json:"catalog_dir,omitempty"`

	Sessions  int                      `json:"sessions"`
	Events    map[traces.EventType]int `json:"events"`
	ToolCalls int                      `json:"tool_calls"`
	// RequestsWithoutUsage counts the model_request events written without
	// usage (the source recorded none for them): run.fidelity cannot
	// compare their prompt tokens. Absent when 0.
	RequestsWithoutUsage int `json:"requests_without_usage,omitempty"`
	// CutAtOutputLimit counts the replies the source marks as cut at the
	// output limit (OutputLimitReasons): their recorded text and output
	// tokens end where the limit cut them. Trace v1 has no field for it.
	// Absent when 0.
	CutAtOutputLimit int `json:"replies_cut_at_output_limit,omitempty"`
	// CallsWithoutArgs counts the tool calls written without arguments:
	// a replay that checks such a call against a schema other than the
	// one its model saw checks it as {} (docs/validation.md), unless it is
	// marked args_unrecorded. Absent when 0.
	CallsWithoutArgs int `json:"calls_without_arguments,omitempty"`
	// CallsArgsUnrecorded counts those of them written args_unrecorded:
	// the source did not record their arguments (an OpenTelemetry export
	// without content capture), and the replay validates none of them
	// (calls_unchecked). Absent when 0.
	CallsArgsUnrecorded int `json:"calls_args_unrecorded,omitempty"`
	// CallsWithoutResult counts the answered tool calls whose result the
	// source did not record (an execute_tool span without
	// gen_ai.tool.call.result), written result_unrecorded: the replay adds
	// no tokens for it, so every later prompt of the session lacks the
	// result, and counts it (calls_result_unrecorded). Absent when 0.
	CallsWithoutResult int `json:"calls_without_result,omitempty"`
	// Models counts the sessions written by the model their session_start
	// names (after --model; "" for the sessions that name none), the most
	// sessions first, then by name: at most MaxReportedModels of them, the
	// others counted in ModelsOmitted and ModelsOmittedSessions.
	Models                []ModelSessions `json:"models"`
	ModelsOmitted         int             `json:"models_omitted,omitempty"`
	ModelsOmittedSessions int             `json:"models_omitted_sessions,omitempty"`

	// Catalog lists the catalog files written.
	Catalog []CatalogFile `json:"catalog"`
	// MissingSchemas lists tools called without a schema from any source.
	MissingSchemas []MissingTool `json:"missing_schemas"`
	// SchemaFidelity lists the called tools whose catalog schema is not
	// exact: approximate, or a stand-in for a schema the source lacks.
	SchemaFidelity []FidelityTool `json:"schema_fidelity"`
	// Rejected lists the called tools whose recorded arguments the
	// exact schema their catalog version gives them rejects (absent when
	// none): see RejectedArgs.
	Rejected []RejectedArgs `json:"rejected_arguments,omitempty"`
	// Servers counts tool calls by how their server was determined.
	Servers map[string]int `json:"server_attribution"`
	// Ambiguous lists tools whose server could not be determined because
	// several servers serve them (the calls stay on the default server).
	Ambiguous []AmbiguousTool `json:"ambiguous_servers"`
	// Gateway counts what the gateway meta-tool mapping did, and how the
	// returned tools of searches were read.
	Gateway map[string]int `json:"gateway"`
	// ErrorResults counts tool calls given status error, by what in the
	// source marked them as failed.
	ErrorResults map[string]int `json:"error_results"`
	// Converted counts source elements trace v1 has no direct place for
	// that were carried over in another form, by how.
	Converted map[string]int `json:"converted"`
	// Unmapped counts source fields trace v1 cannot express, by generic path.
	Unmapped map[string]int `json:"unmapped"`
	// CredentialsDropped counts credential-bearing fields dropped, by path.
	CredentialsDropped map[string]int `json:"credentials_dropped"`
	// ToolDefinitionsDropped counts members of tool definitions that have no
	// place in an MCP tool, by source and path.
	ToolDefinitionsDropped map[string]int `json:"tool_definitions_dropped"`
	// Notes are one-line remarks (auto-detected files, fallbacks used).
	Notes []string `json:"notes"`
	// SkippedLines counts the input lines skipped as not valid JSON
	// (--skip-bad), each a conversation not imported; Skipped says where
	// and why for the first MaxReportedSkips of them. Absent when 0.
	SkippedLines int      `json:"skipped_lines,omitempty"`
	Skipped      []string `json:"skipped,omitempty"`

	noteSeen  map[string]bool
	models    map[string]int
	missing   map[[2]string]int
	ambiguous map[string]*AmbiguousTool
	fidelity  map[[3]string]*FidelityTool
	rejected  map[[4]string]*RejectedArgs
}

// MaxReportedModels bounds Report.Models.
const MaxReportedModels = 10

// MaxReportedSkips bounds Report.Skipped.
const MaxReportedSkips = 10

// SkipLine counts a line of input skipped as not valid JSON; err says which
// line and why.
func (r *Report) SkipLine(input string, err error) {
	r.SkippedLines++
	if len(r.Skipped) < MaxReportedSkips {
		r.Skipped = append(r.Skipped, input+": "+err.Error())
	}
}

// ModelSessions is how many written sessions name one model.
type ModelSessions struct {
	Model    string `json:"model"`
	Sessions int    `json:"sessions"`
}

// AmbiguousTool is a tool called without a server that several servers serve.
type AmbiguousTool struct {
	Tool    string   `json:"tool"`
	Servers []string `json:"servers"`
	Calls   int      `json:"calls"`
}

// CatalogFile is one tools/list file the import wrote.
type CatalogFile struct {
	Server  string   `json:"server"`
	Version string   `json:"version"`
	File    string   `json:"file"`
	Tools   int      `json:"tools"`
	Sources []string `json:"sources"`
	// Approximate and Missing count the tools marked so (see
	// toolschema.Fidelity).
	Approximate int `json:"approximate,omitempty"`
	Missing     int `json:"missing,omitempty"`
}

// FidelityTool is a called tool whose catalog schema is approximate or a
// stand-in for a missing one.
type FidelityTool struct {
	Server   string `json:"server"`
	Tool     string `json:"tool"`
	Fidelity string `json:"fidelity"`
	Note     string `json:"note,omitempty"`
	Calls    int    `json:"calls"`
}

// MissingTool is a tool called without a schema.
type MissingTool struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Calls  int    `json:"calls"`
}

// NewReport returns an empty report for format.
func NewReport(format string) *Report {
	return &Report{
		Format:                 format,
		Events:                 map[traces.EventType]int{},
		Unmapped:               map[string]int{},
		Converted:              map[string]int{},
		CredentialsDropped:     map[string]int{},
		ToolDefinitionsDropped: map[string]int{},
		Notes:                  []string{},
		Catalog:                []CatalogFile{},
		Models:                 []ModelSessions{},
		MissingSchemas:         []MissingTool{},
		SchemaFidelity:         []FidelityTool{},
		Servers:                map[string]int{},
		Ambiguous:              []AmbiguousTool{},
		Gateway:                map[string]int{},
		ErrorResults:           map[string]int{},
		noteSeen:               map[string]bool{},
		missing:                map[[2]string]int{},
		ambiguous:              map[string]*AmbiguousTool{},
	}
}

// OutputLimitReasons are the stop reasons that say a reply was cut at the
// output limit: Anthropic's stop_reason "max_tokens", OpenAI's
// finish_reason "length" (OpenTelemetry's gen_ai.response.finish_reasons
// carries the provider's).
var OutputLimitReasons = []string{"max_tokens", "length"}

// StopReason counts a reply's stop reason when it is one of
// OutputLimitReasons (Report.CutAtOutputLimit).
func (r *Report) StopReason(reason string) {
	if slices.Contains(OutputLimitReasons, reason) {
		r.CutAtOutputLimit++
	}
}

// Unmap counts one occurrence of a source field that could not be mapped.
func (r *Report) Unmap(field string) { r.Unmapped[field]++ }

// UnmapN counts n occurrences of a source field that could not be mapped.
func (r *Report) UnmapN(field string, n int) {
	if n > 0 {
		r.Unmapped[field] += n
	}
}

// Convert counts one source element carried over in another form.
func (r *Report) Convert(how string) {
	if r.Converted == nil {
		r.Converted = map[string]int{}
	}
	r.Converted[how]++
}

// DropCredential counts one credential-bearing field dropped.
func (r *Report) DropCredential(field string) { r.CredentialsDropped[field]++ }

// Note records a remark once, however often it is made.
func (r *Report) Note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if r.noteSeen == nil {
		r.noteSeen = map[string]bool{}
	}
	if r.noteSeen[s] {
		return
	}
	r.noteSeen[s] = true
	r.Notes = append(r.Notes, s)
}

// Model counts one written session naming model ("" for none).
func (r *Report) Model(model string) {
	if r.models == nil {
		r.models = map[string]int{}
	}
	r.models[model]++
}

// Missing counts a call of tool on server for which no schema is known.
func (r *Report) Missing(server, tool string) {
	if r.missing == nil {
		r.missing = map[[2]string]int{}
	}
	r.missing[[2]string{server, tool}]++
}

// Fidelity counts a call of tool on server whose catalog schema has
// fidelity f (approximate or missing) for the reason note.
func (r *Report) Fidelity(server, tool, f, note string) {
	if r.fidelity == nil {
		r.fidelity = map[[3]string]*FidelityTool{}
	}
	k := [3]string{server, tool, f}
	ft := r.fidelity[k]
	if ft == nil {
		ft = &FidelityTool{Server: server, Tool: tool, Fidelity: f, Note: note}
		r.fidelity[k] = ft
	}
	ft.Calls++
}

// AmbiguousServer counts a call of tool, named without a server, that the
// servers (sorted) all serve.
func (r *Report) AmbiguousServer(tool string, servers []string) {
	if r.ambiguous == nil {
		r.ambiguous = map[string]*AmbiguousTool{}
	}
	key := tool + "\x00" + strings.Join(servers, "\x00")
	a := r.ambiguous[key]
	if a == nil {
		a = &AmbiguousTool{Tool: tool, Servers: servers}
		r.ambiguous[key] = a
	}
	a.Calls++
}

// Finish orders the collected lists (call it once, after the import).
func (r *Report) Finish() {
	r.MissingSchemas = r.MissingSchemas[:0]
	for k, n := range r.missing {
		r.MissingSchemas = append(r.MissingSchemas, MissingTool{Server: k[0], Tool: k[1], Calls: n})
	}
	sort.Slice(r.MissingSchemas, func(i, j int) bool {
		a, b := r.MissingSchemas[i], r.MissingSchemas[j]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		if a.Server != b.Server {
			return a.Server < b.Server
		}
		return a.Tool < b.Tool
	})
	sort.Slice(r.Catalog, func(i, j int) bool { return r.Catalog[i].File < r.Catalog[j].File })
	r.finishModels()
	r.finishRejected()
	r.SchemaFidelity = r.SchemaFidelity[:0]
	for _, f := range r.fidelity {
		r.SchemaFidelity = append(r.SchemaFidelity, *f)
	}
	sort.Slice(r.SchemaFidelity, func(i, j int) bool {
		a, b := r.SchemaFidelity[i], r.SchemaFidelity[j]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		if a.Server != b.Server {
			return a.Server < b.Server
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Fidelity < b.Fidelity
	})
	r.Ambiguous = r.Ambiguous[:0]
	for _, a := range r.ambiguous {
		r.Ambiguous = append(r.Ambiguous, *a)
	}
	sort.Slice(r.Ambiguous, func(i, j int) bool {
		a, b := r.Ambiguous[i], r.Ambiguous[j]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		return a.Tool+"\x00"+strings.Join(a.Servers, "\x00") < b.Tool+"\x00"+strings.Join(b.Servers, "\x00")
	})
}

// finishModels lists the counted models, the most sessions first (then by
// name), keeping MaxReportedModels and counting the others.
func (r *Report) finishModels() {
	all := make([]ModelSessions, 0, len(r.models))
	for m, n := range r.models {
		all = append(all, ModelSessions{Model: m, Sessions: n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Sessions != all[j].Sessions {
			return all[i].Sessions > all[j].Sessions
		}
		return all[i].Model < all[j].Model
	})
	r.ModelsOmitted, r.ModelsOmittedSessions = 0, 0
	if len(all) > MaxReportedModels {
		for _, m := range all[MaxReportedModels:] {
			r.ModelsOmitted++
			r.ModelsOmittedSessions += m.Sessions
		}
		all = all[:MaxReportedModels]
	}
	r.Models = all
}

// IncompleteUsage is the not-mapped line of a usage record (at field) that
// lacks the figures named in missing: trace v1 usage needs both the input
// and the output figure, and writing 0 for one the source did not record
// would read as a recorded 0, so the request is written without usage.
func IncompleteUsage(field string, missing []string) string {
	return fmt.Sprintf("%s without %s (request written without usage: an absent figure is not 0)", field, strings.Join(missing, ", "))
}
