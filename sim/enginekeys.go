package sim

import (
	"fmt"
	"slices"
)

// EngineKey is a strategy key that no component declares: the engine reads
// it itself (the key that picks a component, the deferrable-tool rule, the
// loading layers), under the strategies Readers names. The reads check
// (Registry.NotReading) knows which strategies leave it unread.
type EngineKey struct {
	Param
	// Readers says which strategies read it.
	Readers string
	// unread says why normalized strategy n does not read the key, and
	// what would make it read it; "" when n reads it.
	unread func(key string, n Strategy) (why, fix string)
}

// Readers of the engine keys, by when the engine reads them.
const (
	readersEvery   = "every strategy"
	readersLoading = "strategies that load tools: all but those whose trigger is never (without trigger.categorical) and discovery eager or cached"
	readersWarm    = readersLoading + ", with warm.disabled false"
	readersCapped  = readersWarm + " and a cap (warm.max_tools or warm.max_tokens)"
)

// neverLoads reports whether normalized strategy n never loads a tool:
// its trigger never turns deferred mode on, so every listed tool is sent
// direct, and its discovery lists every server's tools when the session
// starts, and those of a server a catalog change adds when it is added
// (bringUp; TestNeverTriggerLoadsNoToolOfAnAddedServer). (Under discovery:
// lazy, a tool of a server not listed yet is loaded by a search whatever
// the trigger: docs/engine.md §6.) Such a
// strategy reads no key of the search, the warm set, the directory, the
// injection or the deferrable-tool rule.
func neverLoads(n Strategy) bool {
	return n.Trigger.Mode == TriggerNever && !n.Trigger.Categorical && n.Discovery != "lazy"
}

// neverLoadsWhy is the reason neverLoads gives for key.
func neverLoadsWhy(key string) (why, fix string) {
	return fmt.Sprintf("its trigger %q never turns deferred mode on, and %s is read only in deferred mode "+
			"(by the search, the warm set, the directory or the injection of loaded schemas) or under discovery: lazy", TriggerNever, key),
		"give the strategy a trigger that turns deferred mode on"
}

func readWhenLoading(key string, n Strategy) (string, string) {
	if neverLoads(n) {
		return neverLoadsWhy(key)
	}
	return "", ""
}

// readWhenWarm: the warm set's keying acts only on a warm set's entries;
// a disabled warm set holds none (a loaded schema serves the next request
// only).
func readWhenWarm(key string, n Strategy) (string, string) {
	if why, fix := readWhenLoading(key, n); why != "" {
		return why, fix
	}
	if n.Warm.Disabled {
		return fmt.Sprintf("its warm set is disabled (warm.disabled: true): no schema stays warm for %s to act on", key),
			"remove warm.disabled"
	}
	return "", ""
}

// readWhenCapped: the eviction is asked which entry leaves only when the
// warm set is over a cap.
func readWhenCapped(key string, n Strategy) (string, string) {
	if why, fix := readWhenWarm(key, n); why != "" {
		return why, fix
	}
	if n.Warm.MaxTools == 0 && n.Warm.MaxTokens == 0 {
		return fmt.Sprintf("its warm set has no cap (warm.max_tools, warm.max_tokens are 0): no schema is ever evicted, so %s never decides anything", key),
			"set warm.max_tools or warm.max_tokens"
	}
	return "", ""
}

func readAlways(string, Strategy) (string, string) { return "", "" }

// engineKeys are the strategy keys no component declares, in the order of
// the scenario format's table (docs/scenarios.md). With the keys the
// components declare (`defersim components`) they are every key a
// strategy has, but name, description and source, which are prose.
var engineKeys = []EngineKey{
	{Param{Name: "trigger.mode", Type: "string", Meaning: "the trigger (a registered trigger name)"}, readersEvery, readAlways},
	{Param{Name: "scope", Type: "string", Default: ScopeMCP, Meaning: "which tools are deferrable: mcp or always-defer-only"}, readersLoading, readWhenLoading},
	{Param{Name: "never_defer", Type: "[]pattern", Meaning: "tools that always stay direct"}, readersLoading, readWhenLoading},
	{Param{Name: "warm.key", Type: "string", Default: WarmKeyName, Meaning: "the warm set's keying (a registered keying)"}, readersWarm, readWhenWarm},
	{Param{Name: "warm.eviction", Type: "string", Default: EvictLRL, Meaning: "the warm set's eviction (a registered eviction)"}, readersCapped, readWhenCapped},
	{Param{Name: "warm.disabled", Type: "bool", Default: "false", Meaning: "no warm set: a loaded schema serves only the next request"}, readersLoading, readWhenLoading},
	{Param{Name: "injection", Type: "string", Default: InjectToolsArray, Meaning: "where a loaded schema goes (a registered injection)"}, readersLoading, readWhenLoading},
	{Param{Name: "search.mode", Type: "string", Default: searchSelect, Meaning: "the search mode (a registered ranker)"}, readersLoading, readWhenLoading},
	{Param{Name: "search.family", Type: "[]pattern", Meaning: "families whose member's load also loads search.family_core"}, readersLoading, readWhenLoading},
	{Param{Name: "search.family_core", Type: "[]string", Meaning: "tools loaded with any member of search.family"}, readersLoading, readWhenLoading},
	{Param{Name: "directory.format", Type: "string", Default: DirNames, Meaning: "the directory format (a registered format)"}, readersLoading, readWhenLoading},
	{Param{Name: "directory.notice", Type: "bool", Default: "false", Meaning: "a domain's activation notice when its first tool is loaded (runs with routing descriptions)"}, readersLoading, readWhenLoading},
	{Param{Name: "rejected", Type: "string", Default: RejectRetry, Meaning: "what happens to a call of a cold tool: retry or execute (with params.cold_call_prob > 0)"}, readersLoading, readWhenLoading},
	{Param{Name: "transport", Type: "string", Default: "eager", Meaning: "when a server connects: eager or lazy"}, readersEvery, readAlways},
	{Param{Name: "discovery", Type: "string", Default: "eager", Meaning: "when a server's tools are listed: eager, cached or lazy"}, readersEvery, readAlways},
	{Param{Name: "cache_layout", Type: "string", Meaning: "where requests mark cache breakpoints (caches with breakpoints)"}, readersEvery, readAlways},
}

// EngineKeys lists the strategy keys no component declares and which
// strategies the engine reads each under.
func EngineKeys() []EngineKey { return slices.Clone(engineKeys) }

// engineKey returns the engine key named key.
func engineKey(key string) (EngineKey, bool) {
	i := slices.IndexFunc(engineKeys, func(k EngineKey) bool { return k.Name == key })
	if i < 0 {
		return EngineKey{}, false
	}
	return engineKeys[i], true
}
