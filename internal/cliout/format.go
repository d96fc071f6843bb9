package cliout

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Format is an output format.
type Format string

// The formats a command may support.
const (
	Text     Format = "text"
	JSON     Format = "json"
	Markdown Format = "markdown"
	CSV      Format = "csv"
)

// formatFlag is --format: a value checked against the command's formats.
type formatFlag struct {
	f       *Format
	allowed []Format
}

func (v formatFlag) String() string { return string(*v.f) }
func (v formatFlag) Type() string   { return "format" }

// Set accepts one of the allowed formats ("md" is short for markdown).
func (v formatFlag) Set(s string) error {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if f == "md" {
		f = Markdown
	}
	if !slices.Contains(v.allowed, f) {
		return fmt.Errorf("want %s", list(v.allowed))
	}
	*v.f = f
	return nil
}

func list(fs []Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return nouns.Or(s)
}

// AddFormat registers --format on c, defaulting to the first of allowed,
// and returns the variable it sets.
func AddFormat(c *cobra.Command, allowed ...Format) *Format {
	f := new(Format)
	*f = allowed[0]
	c.Flags().Var(formatFlag{f: f, allowed: allowed}, "format", "output format: "+list(allowed))
	return f
}

// AddJSONAlias registers the deprecated boolean --json as an alias of
// --format json: scripts that used it keep working and are told to move.
func AddJSONAlias(c *cobra.Command, f *Format) {
	c.Flags().Var(jsonAlias{f}, "json", "deprecated: use --format json")
	c.Flags().Lookup("json").NoOptDefVal = "true"
	Deprecate(c, "json", "use --format json")
}

// deprecatedKey annotates a deprecated flag with what to use instead.
const deprecatedKey = "defersim_deprecated"

// Deprecate hides flag name of c from the help and makes WarnDeprecated
// say to use instead: the flag keeps working for the scripts that use it.
func Deprecate(c *cobra.Command, name, instead string) {
	f := c.Flags().Lookup(name)
	f.Hidden = true
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[deprecatedKey] = []string{instead}
}

// WarnDeprecated writes a warning on w for every deprecated flag of c that
// was given.
func WarnDeprecated(c *cobra.Command, w io.Writer) {
	c.Flags().Visit(func(f *pflag.Flag) {
		if use, ok := f.Annotations[deprecatedKey]; ok {
			fmt.Fprintf(w, "defersim: warning: --%s is deprecated: %s\n", f.Name, use[0])
		}
	})
}

type jsonAlias struct{ f *Format }

func (j jsonAlias) String() string { return "false" }
func (j jsonAlias) Type() string   { return "bool" }
func (j jsonAlias) Set(s string) error {
	switch s {
	case "true", "1":
		*j.f = JSON
	case "false", "0":
	default:
		return fmt.Errorf("want true or false")
	}
	return nil
}
