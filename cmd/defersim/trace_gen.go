package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// PLACEHOLDER: replaced by the implementation.
func newTraceGenCmd() *cobra.Command {
	return &cobra.Command{Use: "gen", Short: "not implemented yet",
		RunE: func(*cobra.Command, []string) error { return errors.New("not implemented") }}
}
