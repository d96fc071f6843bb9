// Command defersim replays recorded LLM agent sessions over real MCP tool
// catalogs under deferred-tool-loading strategies and reports token cost,
// latency and error rates. Run with no arguments for the embedded default.
package main

import (
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the process exit status.
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		var ex exitError
		if asExit(err, &ex) {
			if ex.msg != "" {
				fmt.Fprintln(os.Stderr, "defersim:", ex.msg)
			}
			return ex.code
		}
		fmt.Fprintln(os.Stderr, "defersim:", err)
		return 2
	}
	return 0
}
