// Command defersim replays recorded LLM agent sessions over real MCP tool
// catalogs under deferred-tool-loading strategies and reports token cost,
// latency and error rates. Run with no arguments for the embedded default.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/termsafe"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run executes the CLI with args and returns the process exit status. The
// error that ends a command is written to stderr terminal-safe, line by
// line: it may quote a file, tool or server name from the input, and such
// a name may hold an escape sequence.
func run(args []string, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	return execute(root, stderr)
}

// execute runs root as run does, with the arguments and outputs set on it.
func execute(root *cobra.Command, stderr io.Writer) int {
	if err := root.Execute(); err != nil {
		var ex exitError
		if asExit(err, &ex) {
			if ex.msg != "" {
				fmt.Fprintln(stderr, "defersim:", termsafe.Lines(ex.msg))
			}
			return ex.code
		}
		fmt.Fprintln(stderr, "defersim:", termsafe.Lines(err.Error()))
		return 2
	}
	return 0
}
