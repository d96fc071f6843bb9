package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/tokens"
)

// maxTokensInput bounds the text `defersim tokens` reads (256 MiB).
const maxTokensInput = 256 << 20

// tokensResult is `defersim tokens --format json`.
type tokensResult struct {
	Input    string `json:"input"`
	Encoding string `json:"encoding"`
	Bytes    int    `json:"bytes"`
	Tokens   int64  `json:"tokens"`
}

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
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	output := cliout.AddOutput(c, "the count")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		out, err := cliout.Open(*output, cmd.OutOrStdout(), args...)
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		counter, err := tokens.ByName(encoding)
		if err != nil {
			return fmt.Errorf("--encoding: %w", err)
		}
		in := &cliout.Inputs{Stdin: cmd.InOrStdin()}
		r, name, err := in.Open(args[0])
		if err != nil {
			return err
		}
		defer r.Close()
		text, err := io.ReadAll(io.LimitReader(r, maxTokensInput+1))
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		if len(text) > maxTokensInput {
			return fmt.Errorf("%s: over the %d-byte limit", name, maxTokensInput)
		}
		n := counter.Count(text)
		if *format == cliout.JSON {
			return cliout.WriteJSON(out, tokensResult{Input: name, Encoding: counter.Name(), Bytes: len(text), Tokens: n})
		}
		_, err = fmt.Fprintln(out, n)
		return err
	}
	c.Flags().StringVar(&encoding, "encoding", "o200k_base", "o200k_base, cl100k_base, or bytes/N (the bytes/N estimator)")
	return c
}
