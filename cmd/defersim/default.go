package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// PLACEHOLDER: replaced by the implementation.
func runDefault(cmd *cobra.Command) error { return errors.New("not implemented") }
