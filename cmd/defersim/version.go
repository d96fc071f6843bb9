package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/version"
)

func newVersionCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "Print defersim's version and the Go version that built it",
		Long: `version prints the build's version (the module version when installed with
go install ...@VERSION, else the VCS revision of the checkout it was built
from), the Go version and the revision. results.json records the same
product and Go versions, and check warns when two files differ in them.`,
		Args: cobra.NoArgs,
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		in := version.Get()
		if *format == cliout.JSON {
			return cliout.WriteJSON(cmd.OutOrStdout(), in)
		}
		_, err := fmt.Fprintln(cmd.OutOrStdout(), in.String())
		return err
	}
	return c
}
