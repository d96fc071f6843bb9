package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
)

func newTraceImportCmd() *cobra.Command {
	var req importers.Request
	var formatList strings.Builder
	summary := importers.Summary()
	for _, n := range importers.Names() {
		fmt.Fprintln(&formatList, wrapHelp(fmt.Sprintf("  %-20s ", n), summary[n], helpWidth))
	}
	c := &cobra.Command{
		Use:   "import --from FORMAT IN... -o OUT",
		Short: "Import recorded sessions from other formats into trace v1",
		Long: `Import recorded sessions into trace v1 (JSONL; gzip when OUT ends in .gz),
written atomically, with the catalog the sessions reference written beside it
as MCP tools/list files named <server>@<version>.json (in OUT.catalog/, or
--catalog-out). Tool schemas come from the source when it carries them, else
from --tools (an MCP tools/list result, an OpenAI or Anthropic tools array,
the tau2 tools-data listing, or a catalog directory of <server>@<version>.json
files; repeatable, first definition wins), then --approximate-tools, and
--fallback-tools for tools called that no other source defines; schemas that
are not exact are marked in the catalog (_meta "defersim/schema"). Tools
called without any schema are reported, never invented. A call that names
no server is attributed to the only server whose catalog serves it
(ambiguous names are reported). The report lists what could not be mapped
and the credential fields dropped.
Every session_start names the catalog directory in meta "catalog".
Few sources record which servers of a --tools catalog directory (or a
<server>@<version>.json file) a session had connected: every session lists
every one (--connected all, the default: a runtime connects every configured
server), or only those its calls, search results or deferrals use
(--connected called); meta "connected_servers" and a report note say which.
A session whose source records its servers (an Anthropic request's
mcp_servers; tau-bench, tau2, swe-agent, toolbench: the environment's tools)
keeps its list whatever --connected says, plus the given servers it uses
(meta "connected_servers": "recorded"; a report note counts the servers
--connected all would have added).

Sessions recorded through an MCP gateway: --search-tool names its search
meta-tool (calls become tool_search events with their query, and the
returned tools read from the result), --execute-tool its execute meta-tool
(calls become calls of the tool and server its arguments name, with the
inner parameters as arguments).

Formats:
` + formatList.String() + `
See docs/importers.md for the field mappings.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		req.Inputs = args
		guard := outguard.New(slices.Concat(args, req.ToolFiles, []string{req.SystemPromptFile})...)
		if err := guard.Check(req.Out, req.CatalogDir); err != nil {
			return err
		}
		req.Check = guard.CheckOne
		ctx, stop := interruptibleSaying(cmd.Context(), cmd.ErrOrStderr(), "stopping; nothing is written")
		defer stop()
		req.Context = ctx
		prog := newReporter(cmd, progress.Config{Label: "trace import", Verb: "imported", Noun: "inputs", One: "input", Total: int64(len(args))})
		req.Progress = func(done int) { prog.Update(int64(done), int64(done)) }
		rep, err := importers.Run(req)
		if err != nil {
			prog.Abort()
			if ctx.Err() != nil {
				return exitError{code: 130, msg: "import interrupted; nothing was written"}
			}
			return err
		}
		prog.Finish()
		out := cmd.OutOrStdout()
		if *format == cliout.JSON {
			return cliout.WriteJSON(out, rep)
		}
		return rep.WriteText(out)
	}
	f := c.Flags()
	f.StringVar(&req.Format, "from", "", "source format: "+strings.Join(importers.Names(), ", "))
	f.StringVarP(&req.Out, "out", "o", "", "trace file to write (.gz suffix: gzip)")
	f.StringVar(&req.CatalogDir, "catalog-out", "", "catalog directory (default OUT.catalog)")
	f.BoolVar(&req.SkipBad, "skip-bad", false, "skip lines that are not valid JSON (counted in the report) instead of stopping (openai-messages, anthropic-messages: one conversation a line)")
	f.StringArrayVar(&req.ToolFiles, "tools", nil, "tool schema file or catalog directory (repeatable; first definition of a tool wins)")
	f.StringArrayVar(&req.ApproximateToolFiles, "approximate-tools", nil,
		"like --tools, for definitions known to be approximate (used after --tools; marked approximate in the catalog)")
	f.StringArrayVar(&req.FallbackToolFiles, "fallback-tools", nil,
		"schema source used only for tools the sessions call that no other source defines (marked approximate; repeatable)")
	f.StringVar(&req.SystemPromptFile, "system-prompt", "", "system prompt file for sessions whose source records none")
	f.StringVar(&req.Model, "model", "", "model of every session (overrides the recorded one)")
	f.StringVar(&req.Server, "server", "", "server name for tools whose source names no server")
	f.StringVar(&req.Connected, "connected", importers.ConnectedAll,
		"servers of --tools catalog directories and <server>@<version>.json files a session lists: "+
			importers.ConnectedAll+" (every one, in every session) or "+importers.ConnectedCalled+" (those its calls, search results or deferrals use); a session whose source records its servers keeps its list")
	g := &req.Gateway
	f.StringArrayVar(&g.SearchTools, "search-tool", nil, "name of a gateway's search meta-tool (repeatable)")
	f.StringArrayVar(&g.ExecuteTools, "execute-tool", nil, "name of a gateway's execute meta-tool (repeatable)")
	f.StringArrayVar(&g.QueryFields, "search-query-field", nil,
		"argument of a search call holding its query (repeatable, first present wins; default "+strings.Join(ingest.DefaultQueryFields, ", ")+")")
	f.StringArrayVar(&g.ServerFields, "execute-server-field", nil,
		"argument of an execute call naming the server (repeatable; default "+strings.Join(ingest.DefaultServerFields, ", ")+")")
	f.StringArrayVar(&g.ToolFields, "execute-tool-field", nil,
		"argument of an execute call naming the tool (repeatable; default "+strings.Join(ingest.DefaultToolFields, ", ")+")")
	f.StringArrayVar(&g.ParamsFields, "execute-params-field", nil,
		"argument of an execute call holding the parameters (repeatable; default "+strings.Join(ingest.DefaultParamsFields, ", ")+")")
	_ = c.MarkFlagRequired("from")
	_ = c.MarkFlagRequired("out")
	return c
}
