package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/mcpsnap"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
)

// snapshotExit is the exit status of a failed capture (a usage error is 2).
const snapshotExit = 1

func newCatalogSnapshotCmd() *cobra.Command {
	var (
		out, name, version, url, fromConfig string
		protocol                            string
		env                                 []string
		timeout                             time.Duration
		captures                            int
		requireStable, failOnNotes          bool
	)
	c := &cobra.Command{
		Use:   "snapshot [flags] -- COMMAND [ARGS...]",
		Short: "Capture a running MCP server's tool catalog (stdio or HTTP)",
		Long: `snapshot starts an MCP server over stdio (or reaches --url over streamable
HTTP), performs the real handshake through the official Go SDK (initialize,
notifications/initialized, tools/list with pagination) and writes the catalog
file ({"tools":[…]}, tools exactly as served) and a .meta.json beside it
(serverInfo, protocol version, capabilities, instructions, capture time, tool
count, fingerprint, handshake timings over --captures captures: median, min,
max). See docs/live-catalogs.md.

-o names the catalog file; when it is an existing directory or omitted the
file is <name>@<version>.json there (or in the current directory), name and
version from --name and --version or else from serverInfo.
--from-config reads a Claude-Desktop-style {"mcpServers":{…}} file and
snapshots every enabled server into the directory -o (default ".").

A capture that fails (cannot start, exits early, junk on stdout, no answer
within --timeout, an error answer) names the step (start, initialize,
tools/list) and shows the server's last stderr lines; the exit status is 1.
The server process group is always stopped and reaped.

A snapshot a run would note — a server serving no tools, tools with a
missing, null or invalid inputSchema — is written, and a warning naming the
server and tools goes to stderr and to the metadata's "notes"; the exit
status stays 0 unless --fail-on-notes.`,
		Example: `  defersim catalog snapshot -o fs.json -- \
    npx -y @modelcontextprotocol/server-filesystem /tmp
  defersim catalog snapshot --url http://127.0.0.1:8080/mcp --name notes
  defersim catalog snapshot --from-config claude_desktop_config.json \
    -o snapshots/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if captures < 1 {
				return errors.New("--captures must be 1 or more")
			}
			if err := outguard.Check([]string{fromConfig}, out); err != nil {
				return err
			}
			opts := mcpsnap.Options{Timeout: timeout, Captures: captures, ProtocolVersion: protocol}
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			w := snapshotOut{out: cmd.OutOrStdout(), err: cmd.ErrOrStderr(), requireStable: requireStable, failOnNotes: failOnNotes}
			if fromConfig != "" {
				if len(args) > 0 || url != "" || name != "" || version != "" || len(env) > 0 {
					return errors.New("--from-config takes no command, --url, --name, --version or --env")
				}
				return snapshotConfig(ctx, w, fromConfig, out, opts)
			}
			t := mcpsnap.Target{Name: name, Version: version, Env: env, URL: url}
			switch {
			case url != "" && len(args) > 0:
				return errors.New("give either --url or a command after --, not both")
			case url == "" && len(args) == 0:
				return errors.New("no server: give a command after -- (or --url, or --from-config)")
			case len(args) > 0:
				t.Command, t.Args = args[0], args[1:]
			}
			if err := t.Validate(); err != nil {
				return err
			}
			return snapshotOne(ctx, w, t, out, opts)
		},
	}
	f := c.Flags()
	f.StringVarP(&out, "output", "o", "", "catalog file, or directory (with --from-config: directory)")
	f.StringVar(&name, "name", "", "server name for the file name and metadata (default: serverInfo.name)")
	f.StringVar(&version, "version", "", "version for the file name, e.g. the package version (default: serverInfo.version)")
	f.StringArrayVar(&env, "env", nil, "KEY=VALUE added to the server's environment (repeatable; values are not recorded)")
	f.StringVar(&url, "url", "", "streamable-HTTP endpoint instead of a command")
	f.StringVar(&fromConfig, "from-config", "", "Claude-Desktop-style mcpServers JSON: snapshot every server in it")
	f.DurationVar(&timeout, "timeout", 30*time.Second, "limit for one whole capture (start, initialize, tools/list)")
	f.IntVar(&captures, "captures", 3, "captures per server, each from a fresh process; timings are summarised over them")
	f.StringVar(&protocol, "protocol-version", mcpsnap.DefaultProtocolVersion, "protocol version sent in initialize")
	f.BoolVar(&requireStable, "require-stable", false, "exit 1 when captures disagree on tool count or fingerprint")
	f.BoolVar(&failOnNotes, "fail-on-notes", false, "exit 1 when a snapshot has notes (a server serving no tools, a tool with a missing, null or invalid inputSchema); the files are written first")
	return c
}

func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// snapshotOut is where snapshot accounts (out) and warnings (err) go, and
// what turns a written snapshot into exit status 1.
type snapshotOut struct {
	out, err                   io.Writer
	requireStable, failOnNotes bool
}

// snapshotOne captures t and writes its files; out is a file, a directory
// or "" (the current directory).
func snapshotOne(ctx context.Context, w snapshotOut, t mcpsnap.Target, out string, opts mcpsnap.Options) error {
	s, err := mcpsnap.Take(ctx, t, opts)
	if err != nil {
		return exitError{code: snapshotExit, msg: "catalog snapshot: " + err.Error()}
	}
	path := out
	if st, err := os.Stat(out); out == "" || (err == nil && st.IsDir()) {
		path = filepath.Join(out, s.DefaultFileName())
	}
	if _, err := s.WriteFiles(path); err != nil {
		return err
	}
	printSnapshot(w.out, path, s)
	warnSnapshotNotes(w.err, path, s.Meta.Notes)
	if w.requireStable && !s.Meta.Stable {
		return exitError{code: snapshotExit, msg: fmt.Sprintf("catalog snapshot: %s: captures disagree (tool counts %v, fingerprints %v)",
			s.Meta.Server, s.Meta.CaptureToolCounts, s.Meta.CaptureFingerprints)}
	}
	if w.failOnNotes && len(s.Meta.Notes) > 0 {
		return exitError{code: snapshotExit, msg: fmt.Sprintf("catalog snapshot: %s: %s (--fail-on-notes)", s.Meta.Server, notesSummary(s.Meta.Notes))}
	}
	return nil
}

// snapshotConfig captures every server of a config into dir. A failed server
// does not stop the others; the exit status is 1 when any failed.
func snapshotConfig(ctx context.Context, w snapshotOut, config, dir string, opts mcpsnap.Options) error {
	targets, err := mcpsnap.LoadConfig(config)
	if err != nil {
		return err
	}
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	var failed []string
	for _, t := range targets {
		s, err := mcpsnap.Take(ctx, t, opts)
		if err != nil {
			fmt.Fprintf(w.out, "FAILED %s\n", indent(err.Error()))
			failed = append(failed, t.Name)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		path := filepath.Join(dir, s.DefaultFileName())
		if _, err := s.WriteFiles(path); err != nil {
			return err
		}
		printSnapshot(w.out, path, s)
		warnSnapshotNotes(w.err, path, s.Meta.Notes)
		if w.requireStable && !s.Meta.Stable {
			failed = append(failed, t.Name+" (unstable)")
		}
		if w.failOnNotes && len(s.Meta.Notes) > 0 {
			failed = append(failed, t.Name+" (notes)")
		}
	}
	if len(failed) > 0 {
		return exitError{code: snapshotExit, msg: fmt.Sprintf("catalog snapshot: %d of %s failed: %s",
			len(failed), nouns.Count(len(targets), "server"), strings.Join(failed, ", "))}
	}
	return nil
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

// printSnapshot writes a short account of a snapshot.
func printSnapshot(w io.Writer, path string, s *mcpsnap.Snapshot) {
	m := s.Meta
	fp := m.Fingerprint
	if len(fp) > 12 {
		fp = fp[:12]
	}
	fmt.Fprintf(w, "wrote %s (%s, %s, fingerprint %s, protocol %s)\n", path, nouns.Count(m.ToolCount, "tool"), nouns.Count(m.Pages, "page"), fp, m.ProtocolVersion)
	stable := "identical in every capture"
	if !m.Stable {
		stable = fmt.Sprintf("NOT stable: tool counts %v", m.CaptureToolCounts)
	}
	fmt.Fprintf(w, "  %s: tool count and fingerprint %s\n", nouns.Count(m.Captures, "capture"), stable)
	tm := m.Timings
	fmt.Fprintf(w, "  start→initialize %s; start→tools/list %s\n", spreadText(tm.Initialize), spreadText(tm.ToolsList))
}

func spreadText(s mcpsnap.Spread) string {
	if len(s.Samples) <= 1 {
		return fmt.Sprintf("%.1f ms", s.Median)
	}
	return fmt.Sprintf("median %.1f ms (min %.1f, max %.1f)", s.Median, s.Min, s.Max)
}
