package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask logbench itself what comes next, through urfave/cli's
// --generate-bash-completion (App.EnableBashCompletion): the commands, a command's
// flags after a dash, and an experiment's name after reproduce, run or calibrate (each
// experiment is a subcommand there). They are urfave/cli's autocomplete scripts, made
// to call logbench by name and to need nothing else: no bash-completion package, no
// eval of the command line.
const bashCompletion = `# bash completion for logbench: source it, or save it as
# /etc/bash_completion.d/logbench (logbench completion bash > ...)
_logbench_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local opts
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _logbench_complete logbench
`

const zshCompletion = `#compdef logbench
# zsh completion for logbench: save it as _logbench in a folder of $fpath
# (logbench completion zsh > "${fpath[1]}/_logbench"), or source it after compinit
_logbench() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _logbench logbench
`

// completionShells are the shells completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a script that completes logbench's commands, flags and experiment names in bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "bash: source <(logbench completion bash), or save it in /etc/bash_completion.d/logbench; zsh: save it as _logbench in a folder of $fpath; " +
			"fish: logbench completion fish > ~/.config/fish/completions/logbench.fish",
		BashComplete: func(c *cli.Context) {
			for _, s := range completionShells {
				fmt.Fprintln(c.App.Writer, s)
			}
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion takes one shell: bash, zsh or fish")
			}
			switch shell := c.Args().First(); shell {
			case "bash":
				_, err := fmt.Fprint(c.App.Writer, bashCompletion)
				return err
			case "zsh":
				_, err := fmt.Fprint(c.App.Writer, zshCompletion)
				return err
			case "fish":
				script, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.App.Writer, script)
				return err
			default:
				return usagef("completion %q: want bash, zsh or fish", shell)
			}
		},
	}
}
