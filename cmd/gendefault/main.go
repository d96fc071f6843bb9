// Command gendefault regenerates the embedded default data set (a synthetic
// catalog and trace) from its parameter file:
//
//	go generate ./scenarios/default
//
// which runs "go run ../../cmd/gendefault -dir ." in scenarios/default. It
// reads DIR/params.yaml and rewrites DIR/catalog/*.json, DIR/trace.jsonl.gz
// and DIR/params.yaml (canonical form). The output is byte-identical for the
// same parameters; a test in scenarios/default checks the committed files.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/defersim/defersim/traces/gen"
)

func main() {
	dir := flag.String("dir", "scenarios/default", "directory holding params.yaml; generated files are written beside it")
	flag.Parse()
	sum, err := gen.Regenerate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendefault:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d servers, %d server versions, %d tools, %d catalog bytes; %d sessions, %d tool calls, %d catalog changes; trace %d bytes\n",
		*dir, sum.Servers, sum.ServerFiles, sum.Tools, sum.CatalogBytes, sum.Sessions, sum.ToolCalls, sum.CatalogChange, sum.TraceBytes)
}
