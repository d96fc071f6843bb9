// Package cliout holds the output conventions every defersim command
// shares (docs/cli.md):
//
//   - --format text|json|markdown|csv picks the format of what a command
//     prints, among those it supports;
//   - -o FILE writes that output to FILE (atomically) instead of stdout,
//     and "-" means stdout;
//   - "-" as an input file means stdin;
//   - --quiet (on every command) silences progress and chatter on stderr;
//   - a flag whose meaning changed stays as a deprecated alias that warns.
package cliout
