package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// completionHelp holds the help of the completion command cobra adds and
// of its shell subcommands, in our words: cobra's own ran to 81 columns
// and indented its examples with tabs. Keyed by the command's name;
// "PROG" stands for the root command's name.
var completionHelp = map[string]struct{ short, long string }{
	"completion": {
		"Write a shell completion script (bash, zsh, fish, powershell)",
		`Write the script that completes PROG's commands and flags in a shell,
to stdout. Each shell's help says how to load it.`,
	},
	"bash": {
		"Write the bash completion script",
		`Write the bash completion script of PROG to stdout. It needs the
bash-completion package (your OS's package manager installs it).

Load it in the current shell:

    source <(PROG completion bash)

Load it in every new shell (run once, then start a new shell):

    # Linux
    PROG completion bash > /etc/bash_completion.d/PROG
    # macOS
    PROG completion bash > $(brew --prefix)/etc/bash_completion.d/PROG`,
	},
	"zsh": {
		"Write the zsh completion script",
		`Write the zsh completion script of PROG to stdout. Completion must be
enabled in zsh; if it is not, run once:

    echo "autoload -U compinit; compinit" >> ~/.zshrc

Load it in the current shell:

    source <(PROG completion zsh)

Load it in every new shell (run once, then start a new shell):

    # Linux
    PROG completion zsh > "${fpath[1]}/_PROG"
    # macOS
    PROG completion zsh \
      > $(brew --prefix)/share/zsh/site-functions/_PROG`,
	},
	"fish": {
		"Write the fish completion script",
		`Write the fish completion script of PROG to stdout.

Load it in the current shell:

    PROG completion fish | source

Load it in every new shell (run once, then start a new shell):

    PROG completion fish > ~/.config/fish/completions/PROG.fish`,
	},
	"powershell": {
		"Write the PowerShell completion script",
		`Write the PowerShell completion script of PROG to stdout.

Load it in the current shell:

    PROG completion powershell | Out-String | Invoke-Expression

Load it in every new shell: add that line to your PowerShell profile.`,
	},
}

// addCompletionCmd adds cobra's completion command to root now, rather
// than when it executes, with completionHelp's help in place of cobra's,
// so that the help tests walk it as every other command.
func addCompletionCmd(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	prog := root.Name()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		cmds := append([]*cobra.Command{c}, c.Commands()...)
		for _, sub := range cmds {
			h, ok := completionHelp[sub.Name()]
			if !ok {
				continue
			}
			sub.Short = h.short
			sub.Long = strings.ReplaceAll(h.long, "PROG", prog)
		}
	}
}
