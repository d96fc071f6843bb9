package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/atomicfile"
)

// docOutputMarker starts the comment that puts the fenced code block on the
// next line under test: `<!-- output: commands -->` for a block of `$ `
// command lines, each followed by what it prints, and `<!-- output: file
// NAME -->` for a block quoting a file the commands before it wrote. The
// comment does not render.
const docOutputMarker = "<!-- output: "

// docElision is a block line (spaces around it allowed) that stands for
// any lines of the output, none included.
const docElision = "…"

// docBlock is a fenced code block of a doc under a docOutputMarker.
type docBlock struct {
	line       int    // the marker's line, from 1
	file       string // the quoted file, "" for a commands block
	start, end int    // the block's content in the doc, in bytes
	content    string
}

// docBlocks returns the marked blocks of doc in their order, failing on a
// marker with no fenced block after it or a kind it does not know.
func docBlocks(t *testing.T, name, doc string) []docBlock {
	t.Helper()
	var blocks []docBlock
	var cur *docBlock
	off := 0
	for i, line := range strings.SplitAfter(doc, "\n") {
		text := strings.TrimRight(line, "\n")
		switch {
		case cur != nil && cur.start == 0:
			if !strings.HasPrefix(text, "```") {
				t.Fatalf("%s:%d: the marker is not followed by a fenced block", name, cur.line)
			}
			cur.start = off + len(line)
		case cur != nil && text == "```":
			cur.end = off
			cur.content = doc[cur.start:cur.end]
			blocks = append(blocks, *cur)
			cur = nil
		case cur == nil && strings.HasPrefix(text, docOutputMarker):
			kind, ok := strings.CutSuffix(strings.TrimPrefix(text, docOutputMarker), " -->")
			b := docBlock{line: i + 1}
			if file, isFile := strings.CutPrefix(kind, "file "); isFile {
				b.file = file
			} else if !ok || kind != "commands" {
				t.Fatalf("%s:%d: marker %q: want %scommands --> or %sfile NAME -->", name, i+1, text, docOutputMarker, docOutputMarker)
			}
			cur = &b
		}
		off += len(line)
	}
	if cur != nil {
		t.Fatalf("%s:%d: the marked block is not closed", name, cur.line)
	}
	return blocks
}

// docCommand is one `$ ` line of a commands block and the lines quoted as
// its output.
type docCommand struct {
	line string
	want []string
}

// docCommands splits a commands block into its commands.
func docCommands(t *testing.T, name string, b docBlock) []docCommand {
	t.Helper()
	var cmds []docCommand
	for l := range strings.SplitSeq(strings.TrimSuffix(b.content, "\n"), "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			cmds = append(cmds, docCommand{line: c})
			continue
		}
		if len(cmds) == 0 {
			t.Fatalf("%s:%d: the block does not start with a `$ ` command line", name, b.line)
		}
		cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, l)
	}
	return cmds
}

// docExitPrefix starts the last quoted line of a command that states its
// exit status (`exit status: 1`): the command must exit so, and its quoted
// output is what it printed on stdout, then on stderr, then that line.
const docExitPrefix = "exit status: "

// wantExit returns the exit status the quoted lines end with, if they do.
func wantExit(want []string) (int, bool) {
	if len(want) == 0 {
		return 0, false
	}
	code, ok := strings.CutPrefix(want[len(want)-1], docExitPrefix)
	if !ok {
		return 0, false
	}
	var n int
	if _, err := fmt.Sscanf(code, "%d", &n); err != nil || fmt.Sprint(n) != code {
		return 0, false
	}
	return n, true
}

// elided reports whether want elides lines.
func elided(want []string) bool {
	for _, w := range want {
		if strings.TrimSpace(w) == docElision {
			return true
		}
	}
	return false
}

// matchElided reports whether got is want with each elision replaced by
// any number of lines.
func matchElided(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == docElision {
		for k := 0; k <= len(got); k++ {
			if matchElided(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchElided(want[1:], got[1:])
}

// docRun runs the commands and checks the files of the marked blocks of the
// doc at path, in its order, in the working directory (the caller's, which
// it does not change). A `$ defersim …` line runs in-process with its
// arguments split on spaces, each starting with "../shared/data/" rewritten
// by data; any other command line must be a key of shell, which runs it.
// A command must exit 0 and print (on stdout) the lines quoted after it,
// elisions standing for any lines; one whose quote ends with `exit status:
// N` must exit N and print the lines before it on stdout, then stderr.
// Without elisions, -update rewrites the quotes (and a quoted file) with
// what was printed; a quoted file with elisions is compared like a command's
// output.
func docRun(t *testing.T, path string, data func(rel string) string, shell map[string]func() error) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, name := string(raw), filepath.Base(path)
	var out strings.Builder
	last := 0
	for _, b := range docBlocks(t, name, doc) {
		out.WriteString(doc[last:b.start])
		last = b.end
		if b.file != "" {
			got, err := os.ReadFile(b.file)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, b.line, err)
			}
			want := strings.Split(strings.TrimSuffix(b.content, "\n"), "\n")
			switch {
			case elided(want):
				// A quote that elides lines is refreshed by hand.
				if !matchElided(want, strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")) {
					t.Errorf("%s:%d: %s differs from the quoted file (-doc +now; a %s line stands for any lines); refresh the quote by hand:\n%s",
						name, b.line, b.file, docElision, cmp.Diff(b.content, string(got)))
				}
				out.WriteString(b.content)
			default:
				if string(got) != b.content && !*updateGolden {
					t.Errorf("%s:%d: %s differs from the quoted file (-doc +now); rerun with -update if intended:\n%s",
						name, b.line, b.file, cmp.Diff(b.content, string(got)))
				}
				out.Write(got)
			}
			continue
		}
		for _, c := range docCommands(t, name, b) {
			fmt.Fprintf(&out, "$ %s\n", c.line)
			got := docExec(t, name, b.line, c.line, c.want, data, shell)
			gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if got == "" {
				gotLines = nil
			}
			switch {
			case matchElided(c.want, gotLines):
				for _, w := range c.want {
					out.WriteString(w + "\n")
				}
			case *updateGolden && !elided(c.want):
				out.WriteString(got)
			default:
				how := "rerun with -update if intended"
				if elided(c.want) {
					how = "the quote elides lines (" + docElision + "): refresh it by hand"
				}
				t.Errorf("%s:%d: `%s` prints other lines than quoted (-doc +now; a %s line stands for any lines); %s:\n%s",
					name, b.line, c.line, docElision, how, cmp.Diff(c.want, gotLines))
				for _, w := range c.want {
					out.WriteString(w + "\n")
				}
			}
		}
	}
	out.WriteString(doc[last:])
	if *updateGolden && out.String() != doc {
		if err := atomicfile.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the quoted output of %s", path)
	}
}

// docExec runs one command line of a doc and returns its stdout, or, when
// the quoted lines want end with an exit status, its stdout, stderr and
// exit status as wantExit reads them.
func docExec(t *testing.T, name string, line int, cmdline string, want []string, data func(string) string, shell map[string]func() error) string {
	t.Helper()
	rest, ok := strings.CutPrefix(cmdline, "defersim ")
	if !ok {
		run := shell[cmdline]
		if run == nil {
			t.Fatalf("%s:%d: `%s`: the test does not know how to run this command", name, line, cmdline)
		}
		if err := run(); err != nil {
			t.Fatalf("%s:%d: `%s`: %v", name, line, cmdline, err)
		}
		return ""
	}
	args := strings.Fields(rest)
	for i, a := range args {
		if strings.ContainsAny(a, `'"`) {
			t.Fatalf("%s:%d: `%s`: quoted arguments are not split as a shell would", name, line, cmdline)
		}
		if rel, ok := strings.CutPrefix(a, "../shared/data/"); ok {
			args[i] = data(rel)
		}
	}
	if wantCode, ok := wantExit(want); ok {
		// Printed as the binary prints it: the error that ends the
		// command is on stderr after "defersim: ".
		root := newRootCmd()
		var stdout, stderr bytes.Buffer
		root.SetOut(&stdout)
		root.SetErr(&stderr)
		root.SetArgs(args)
		code := execute(root, &stderr)
		if code != wantCode {
			t.Errorf("%s:%d: `%s`: exit %d, the doc says %d", name, line, cmdline, code, wantCode)
		}
		return fmt.Sprintf("%s%s%s%d\n", stdout.String(), stderr.String(), docExitPrefix, code)
	}
	stdout, stderr, code := cliRun(t, args...)
	if code != 0 {
		t.Fatalf("%s:%d: `%s`: exit %d\n%s%s", name, line, cmdline, code, stdout, stderr)
	}
	return stdout
}

// docWords returns the page docs/NAME with every run of white space made
// one space, so that a test can look a phrase up across the page's line
// wraps.
func docWords(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(raw)), " ")
}

// docPage returns the absolute path and the text of docs/NAME, read from
// the package directory (call it before t.Chdir).
func docPage(t *testing.T, name string) (path, text string) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(raw)
}

// docProse returns text with every run of white space one space, so that
// a sentence of a page is found whatever its line breaks.
func docProse(text string) string { return strings.Join(strings.Fields(text), " ") }

// docTableRows returns the rows of the page's Markdown tables that have
// cols cells, keyed by their first cell, each with the cells after it.
func docTableRows(page string, cols int) map[string][]string {
	rows := map[string][]string{}
	for l := range strings.SplitSeq(page, "\n") {
		if !strings.HasPrefix(l, "| ") || !strings.HasSuffix(l, " |") {
			continue
		}
		if f := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | "); len(f) == cols {
			rows[f[0]] = f[1:]
		}
	}
	return rows
}

// docResults is the part of a results.json the doc tests recompute
// figures from: each strategy's metrics' mean and median.
type docResults struct {
	Run struct {
		Seed   int64 `json:"seed"`
		Counts struct {
			Sessions int `json:"sessions_replayed"`
		} `json:"counts"`
	} `json:"run"`
	Strategies []struct {
		Name    string `json:"name"`
		Metrics map[string]struct {
			Mean float64 `json:"mean"`
			P50  float64 `json:"p50"`
		} `json:"metrics"`
	} `json:"strategies"`
}
