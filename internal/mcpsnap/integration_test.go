//go:build unix

package mcpsnap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// npmServer is a published MCP server that scripts/install-mcp-servers.sh
// installs at two pinned versions.
type npmServer struct {
	pkg      string
	versions [2]string
	// allowedDir: the server needs a directory argument (the filesystem
	// server's allowed root); the test passes a fresh temporary directory.
	allowedDir bool
}

var npmServers = []npmServer{
	{pkg: "@modelcontextprotocol/server-everything", versions: [2]string{"2025.5.12", "2025.11.25"}},
	{pkg: "@modelcontextprotocol/server-filesystem", versions: [2]string{"2025.7.29", "2025.11.25"}, allowedDir: true},
}

// installRoot finds the servers installed by scripts/install-mcp-servers.sh,
// skipping the test (failing it under CI) when they are absent.
func installRoot(t *testing.T) (node, root string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js not found on PATH: the npm MCP server integration test needs node " +
			"(and scripts/install-mcp-servers.sh, which .ci/run calls)")
	}
	root = os.Getenv("DEFERSIM_MCP_SERVERS")
	if root == "" {
		root = filepath.Join("..", "..", ".cache", "mcp-servers")
	}
	for _, s := range npmServers {
		for _, v := range s.versions {
			if _, err := os.Stat(entryPoint(root, s.pkg, v)); err != nil {
				msg := "npm MCP servers not installed (" + err.Error() + "): run scripts/install-mcp-servers.sh"
				if os.Getenv("CI") == "true" {
					t.Fatal(msg + " — .ci/run must install them before the tests")
				}
				t.Skip(msg)
			}
		}
	}
	return node, root
}

// entryPoint is the script the shared captures launched (see their
// .meta.json "command").
func entryPoint(root, pkg, version string) string {
	return filepath.Join(root, pkg+"@"+version, "node_modules", pkg, "dist", "index.js")
}

// isolated returns command and args that run the server without network
// access: in a network namespace of its own (only a loopback interface)
// through unshare(1), when the machine allows it. unshare executes the
// server in its own process, so the capture still owns and reaps it.
func isolated(t *testing.T, command string, args []string) (string, []string) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err == nil {
		err = exec.Command(unshare, "--net", "--", "true").Run()
	}
	if err != nil {
		t.Logf("network isolation unavailable (%v): running the server in the host network", err)
		return command, args
	}
	return unshare, append([]string{"--net", "--", command}, args...)
}

// TestNPMServersMatchSharedCaptures snapshots each installed npm server
// twice, checks the captures agree, diffs the two versions and compares
// each snapshot with the capture of the same package version in the shared
// catalogs: same tool names in the same order and, after canonicalisation,
// the same tool objects (schemas, descriptions, everything).
func TestNPMServersMatchSharedCaptures(t *testing.T) {
	node, root := installRoot(t)
	shared := shareddata.Find()
	for _, s := range npmServers {
		t.Run(FileStem(s.pkg), func(t *testing.T) {
			var snaps [2]*catalog.Server
			for i, v := range s.versions {
				args := []string{entryPoint(root, s.pkg, v)}
				if s.allowedDir {
					args = append(args, t.TempDir())
				}
				tgt := Target{Name: s.pkg, Version: v}
				tgt.Command, tgt.Args = isolated(t, node, args)
				snap, err := Take(context.Background(), tgt, Options{Captures: 2, Timeout: 2 * time.Minute})
				if err != nil {
					t.Fatalf("%s@%s: %v", s.pkg, v, err)
				}
				for _, c := range snap.Captures {
					if err := syscall.Kill(c.PID, 0); !errors.Is(err, syscall.ESRCH) {
						t.Errorf("%s@%s: server process %d still exists after the capture", s.pkg, v, c.PID)
					}
				}
				m := snap.Meta
				if !m.Stable || m.CaptureToolCounts[0] != m.CaptureToolCounts[1] || len(m.CaptureFingerprints) != 1 {
					t.Errorf("%s@%s: captures disagree: tool counts %v, fingerprints %v", s.pkg, v, m.CaptureToolCounts, m.CaptureFingerprints)
				}
				t.Logf("%s@%s: %d tools, %d page(s), fingerprint %.12s, start→initialize %v ms, start→tools/list %v ms",
					s.pkg, v, m.ToolCount, m.Pages, m.Fingerprint, m.Timings.Initialize.Samples, m.Timings.ToolsList.Samples)
				snaps[i] = snap.Server
				if shared == "" {
					t.Logf("shared catalogs absent: not compared")
					continue
				}
				ref, err := catalog.LoadFile(filepath.Join(shared, "catalogs", FileStem(s.pkg)+"@"+v+".json"))
				if err != nil {
					t.Fatalf("shared capture: %v", err)
				}
				compareWithCapture(t, snap.Server, ref)
				compareInitialize(t, snap.Meta, ref)
			}
			d := catalog.Diff(snaps[0], snaps[1])
			var buf bytes.Buffer
			if err := catalog.FormatDiff(&buf, d); err != nil {
				t.Fatal(err)
			}
			summary, _, _ := strings.Cut(buf.String(), "unchanged")
			t.Logf("live drift %s → %s:\n%s", s.versions[0], s.versions[1], summary)
			if shared == "" {
				return
			}
			// The live drift is the drift between the shared captures.
			a, errA := catalog.LoadFile(filepath.Join(shared, "catalogs", FileStem(s.pkg)+"@"+s.versions[0]+".json"))
			b, errB := catalog.LoadFile(filepath.Join(shared, "catalogs", FileStem(s.pkg)+"@"+s.versions[1]+".json"))
			if errA != nil || errB != nil {
				t.Fatal(errors.Join(errA, errB))
			}
			want := catalog.Diff(a, b)
			if !slices.Equal(d.Added, want.Added) || !slices.Equal(d.Removed, want.Removed) || len(d.Changed) != len(want.Changed) || d.Class != want.Class {
				t.Errorf("live drift (+%v -%v ~%d %s) differs from the shared captures' (+%v -%v ~%d %s)",
					d.Added, d.Removed, len(d.Changed), d.Class, want.Added, want.Removed, len(want.Changed), want.Class)
			}
		})
	}
}

// compareWithCapture checks a live snapshot against a shared capture of the
// same version: same tool names in the same order, and each tool's
// canonical JSON (hence its inputSchema) identical. A difference names the
// tool and the member that differs.
func compareWithCapture(t *testing.T, live, ref *catalog.Server) {
	t.Helper()
	if !slices.Equal(live.ToolNames(), ref.ToolNames()) {
		t.Errorf("%s: tool names %v, shared capture %v", ref.Label(), live.ToolNames(), ref.ToolNames())
		return
	}
	for _, lt := range live.Tools {
		rt := ref.Tool(lt.Name)
		if lt.Fingerprint == rt.Fingerprint {
			continue
		}
		ls, err1 := catalog.Canonical(lt.InputSchema)
		rs, err2 := catalog.Canonical(rt.InputSchema)
		if err1 != nil || err2 != nil {
			t.Fatal(errors.Join(err1, err2))
		}
		if !bytes.Equal(ls, rs) {
			t.Errorf("%s: tool %s: inputSchema differs after canonicalisation:\n live %s\n shared %s", ref.Label(), lt.Name, ls, rs)
		}
		tc, _ := catalog.DiffTool(rt, lt)
		t.Errorf("%s: tool %s differs from the shared capture: %+v", ref.Label(), lt.Name, tc.Changes)
	}
	if live.Fingerprint != ref.Fingerprint {
		t.Errorf("%s: catalog fingerprint %s, shared capture %s", ref.Label(), live.Fingerprint, ref.Fingerprint)
	}
}

// compareInitialize checks the live initialize result (serverInfo,
// capabilities, protocol version, instructions) against the one recorded in
// the shared capture's .meta.json.
func compareInitialize(t *testing.T, m Meta, ref *catalog.Server) {
	t.Helper()
	var shared struct {
		Initialize struct {
			ProtocolVersion string          `json:"protocolVersion"`
			ServerInfo      json.RawMessage `json:"serverInfo"`
			Capabilities    json.RawMessage `json:"capabilities"`
			Instructions    string          `json:"instructions"`
		} `json:"initialize"`
	}
	if err := json.Unmarshal(ref.Meta, &shared); err != nil {
		t.Fatalf("%s: shared metadata: %v", ref.Label(), err)
	}
	in := shared.Initialize
	canon := func(raw json.RawMessage) string {
		c, err := catalog.Canonical(raw)
		if err != nil {
			t.Fatalf("%s: %v", ref.Label(), err)
		}
		return string(c)
	}
	if m.ProtocolVersion != in.ProtocolVersion || m.Instructions != in.Instructions ||
		canon(m.ServerInfo) != canon(in.ServerInfo) || canon(m.Capabilities) != canon(in.Capabilities) {
		t.Errorf("%s: initialize differs from the shared capture:\n live %s %s %s\n shared %s %s %s",
			ref.Label(), m.ProtocolVersion, m.ServerInfo, m.Capabilities, in.ProtocolVersion, in.ServerInfo, in.Capabilities)
	}
}
