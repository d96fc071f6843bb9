package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/termsafe"
)

func newCatalogDiffCmd() *cobra.Command {
	var (
		failOn string
	)
	c := &cobra.Command{
		Use:   "diff A B",
		Short: "Drift between two catalog files: tools added, removed, changed",
		Long: `diff compares catalog file A (older) with B (newer). Each changed tool is
classified as metadata-only, description-only, schema-compatible or breaking,
with the JSON path of every change (see docs/catalogs.md).

It also says what the upgrade costs in tokens: every tool of each side
counted alone and summed (as catalog stats counts them; --counter and
--form), each added, removed and changed tool's tokens, and how many more
tokens each request that sends every tool directly carries (the schema
delta plus --tool-overhead framing tokens per tool more).

--fail-on breaking exits 1 when any change is breaking (a removed tool
counts); --fail-on any exits 1 when anything differs; --fail-on none
(default) never does.`,
		Args: cobra.ExactArgs(2),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the diff")
	tf := addTokenFlags(c)
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		out, err := cliout.Open(*output, cmd.OutOrStdout(), args...)
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		switch failOn {
		case "none", "any", "breaking":
		default:
			return fmt.Errorf("--fail-on: want breaking, any or none, not %q", failOn)
		}
		opt, err := tf.options(cmd)
		if err != nil {
			return err
		}
		a, err := loadDiffSide(args[0])
		if err != nil {
			return err
		}
		b, err := loadDiffSide(args[1])
		if err != nil {
			return err
		}
		printCatalogWarnings(cmd, catalog.Warnings([]*catalog.Server{a, b}))
		printFileChecks(cmd, []*catalog.Server{a, b})
		d := catalog.Diff(a, b)
		d.Notes = catalog.DiffNotes(a, b)
		td := catalog.DiffTokens(a, b, d, opt)
		d.Tokens = &td
		if !cliout.Quiet(cmd) {
			for _, n := range d.Notes {
				fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: %s\n", termsafe.String(n))
			}
		}
		if *format == cliout.JSON {
			err = cliout.WriteJSON(out, d)
		} else {
			err = catalog.FormatDiff(out, d)
		}
		if err != nil {
			return err
		}
		drift := len(d.Added)+len(d.Removed)+len(d.Changed) > 0
		switch {
		case failOn == "any" && drift:
			return exitError{code: 1, msg: fmt.Sprintf("catalog drift: %d added, %d removed, %d changed", len(d.Added), len(d.Removed), len(d.Changed))}
		case failOn == "breaking" && d.Class == catalog.ClassBreaking:
			return exitError{code: 1, msg: "breaking catalog drift"}
		}
		return nil
	}
	c.Flags().StringVar(&failOn, "fail-on", "none", "exit 1 on drift of this class: breaking, any or none")
	return c
}

// loadDiffSide loads one side of a diff. A file that does not exist, in a
// directory holding other versions of the server its name gives, is an
// error listing those versions (a mistyped or missing version reads as
// that, not only as "no such file").
func loadDiffSide(path string) (*catalog.Server, error) {
	s, err := catalog.LoadFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	name, version, variant := catalog.ParseFileName(path)
	entries, rerr := os.ReadDir(filepath.Dir(path))
	if rerr != nil || version == "" {
		return nil, err
	}
	var have, files []string
	for _, e := range entries {
		if e.IsDir() || catalog.IsMetaFile(e.Name()) || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		files = append(files, e.Name())
		if n, v, va := catalog.ParseFileName(e.Name()); n == name && va == variant && v != "" {
			have = append(have, v)
		}
	}
	if len(have) == 0 {
		// No version of the server: its name may be the typo.
		if near := catalog.NearName(filepath.Base(path), files); near.Kind != catalog.NearNone {
			return nil, fmt.Errorf("%s: no such file; %s holds no catalog of %s; %s", path, filepath.Dir(path), name, near.Hint())
		}
		return nil, err
	}
	slices.SortFunc(have, catalog.CompareVersions)
	label := name
	if variant != "" {
		label += "+" + variant
	}
	return nil, errors.New(catalog.NearName(version, have).WithHint(fmt.Sprintf("%s: no such file; %s holds %s at %s", path, filepath.Dir(path), label, strings.Join(have, ", "))))
}
