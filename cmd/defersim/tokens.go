package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/tokens"
)

// maxTokensInput bounds the text `defersim tokens` reads (256 MiB).
const maxTokensInput = 256 << 20

func newTokensCmd() *cobra.Command {
	var encoding string
	c := &cobra.Command{
		Use:   "tokens [--encoding E] FILE|-",
		Short: "Count the tokens of a text: a schema, a prompt, a file",
		Long: `tokens prints the number of tokens of FILE (or of standard input with -),
counted whole and exactly as given: every byte, a trailing newline included,
special-token markers such as <|endoftext|> as ordinary text. The count
equals tiktoken-go's Encode of the whole text (docs/catalogs.md, "Counters").

--encoding is a counter name: o200k_base (default), cl100k_base, or bytes/N
for the bytes/N estimator (bytes/3.5 is the anchor runtime's). Inputs over
256 MiB are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			counter, err := tokens.ByName(encoding)
			if err != nil {
				return fmt.Errorf("--encoding: %w", err)
			}
			text, err := readTokensInput(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), counter.Count(text))
			return err
		},
	}
	c.Flags().StringVar(&encoding, "encoding", "o200k_base", "o200k_base, cl100k_base, or bytes/N (the bytes/N estimator)")
	return c
}

// readTokensInput reads the file name, or stdin for "-", up to
// maxTokensInput bytes.
func readTokensInput(stdin io.Reader, name string) ([]byte, error) {
	r, label := stdin, "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, label = f, name
	}
	b, err := io.ReadAll(io.LimitReader(r, maxTokensInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", label, err)
	}
	if len(b) > maxTokensInput {
		return nil, fmt.Errorf("%s: over the %d-byte limit", label, maxTokensInput)
	}
	return b, nil
}
