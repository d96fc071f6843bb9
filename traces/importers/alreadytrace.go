package importers

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/traces/importers/sniff"
)

// alreadyTrace is the error of an import given an input that is already a
// defersim trace (sniff.TraceFile): no format imports it (each failed on
// it with an error about its own structure, or found no session in it),
// and it needs no import: it names the commands that read it.
func alreadyTrace(inputs []string) error {
	for _, in := range inputs {
		if why := sniff.TraceFile(in); why != "" {
			q := shellArg(in)
			return fmt.Errorf("%s: already a defersim trace (%s): it needs no import; replay it with defersim run --traces %s, check it with defersim trace validate %s",
				in, why, q, q)
		}
	}
	return nil
}

// shellArg quotes path for a POSIX shell when it holds a character a shell
// would take for something else, so the command it is part of can be
// copied.
func shellArg(path string) string {
	if path != "" && strings.Trim(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+:,@=") == "" {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}
