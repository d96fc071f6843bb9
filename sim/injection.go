package sim

// Injection says how a schema loaded by tool_search reaches the model.
type Injection interface {
	// InToolsArray reports whether loaded schemas join tools[] (at their
	// canonical place, from the next request on: the cached prefix changes
	// from there) rather than staying in the conversation.
	InToolsArray() bool
	// Result says what the tool_search result that loads a tool holds;
	// echo is the strategy's echo_schema.
	Result(echo bool) LoadResult
}

// LoadResult lists what a tool_search result holds for each loaded tool;
// the engine counts it.
type LoadResult struct {
	// Name: a confirmation naming the tool (its name's tokens plus 2).
	Name bool
	// Schema: the tool's definition as tools[] carries it; the result then
	// counts as schema tokens.
	Schema bool
	// Pretty: the input schema again, as pretty-printed JSON.
	Pretty bool
}

type toolsArrayInjection struct{}

func (toolsArrayInjection) InToolsArray() bool { return true }
func (toolsArrayInjection) Result(echo bool) LoadResult {
	return LoadResult{Name: true, Pretty: echo}
}

type inlineInjection struct{}

func (inlineInjection) InToolsArray() bool     { return false }
func (inlineInjection) Result(bool) LoadResult { return LoadResult{Schema: true} }

func registerInjections(r *Registry) error {
	if err := r.RegisterInjection(Info{Name: InjectToolsArray,
		Description: "a loaded schema joins tools[] from the next request (the cached prefix changes from there); the search result confirms its name",
		Params: []Param{{Name: "echo_schema", Type: "bool", Default: "false",
			Meaning: "the search result also returns the schema as pretty-printed JSON"}}},
		toolsArrayInjection{}); err != nil {
		return err
	}
	return r.RegisterInjection(Info{Name: InjectInline,
		Description: "a loaded schema is returned in the conversation, like tool_reference: the prefix before it is untouched"},
		inlineInjection{})
}
