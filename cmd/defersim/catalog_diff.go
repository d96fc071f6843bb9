package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// PLACEHOLDER: replaced by the implementation.
func newCatalogDiffCmd() *cobra.Command {
	return &cobra.Command{Use: "diff", Short: "not implemented yet",
		RunE: func(*cobra.Command, []string) error { return errors.New("not implemented") }}
}
