package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCompletionScripts: each shell's script is printed, names logbench, and parses in
// its shell where the shell is installed (bash -n, zsh -n, fish --no-execute); an unknown
// shell is bad input.
func TestCompletionScripts(t *testing.T) {
	parse := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}}
	for _, shell := range completionShells {
		t.Run(shell, func(t *testing.T) {
			script, err := runApp(t, "completion", shell)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(script, "logbench") || !strings.Contains(script, "comp") {
				t.Fatalf("not a completion script for logbench:\n%s", script)
			}
			if shell == "fish" {
				for _, want := range []string{"-a 'verify'", "-l format", "-a 'qps'"} {
					if !strings.Contains(script, want) {
						t.Errorf("the fish script does not complete %s", want)
					}
				}
			}
			bin, err := exec.LookPath(parse[shell][0])
			if err != nil {
				t.Logf("%s is not installed: the script's syntax is not checked", shell)
				return
			}
			path := t.TempDir() + "/logbench." + shell
			os.WriteFile(path, []byte(script), 0o644)
			if out, err := exec.Command(bin, append(parse[shell][1:], path)...).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", bin, strings.Join(parse[shell][1:], " "), err, out)
			}
		})
	}
	if _, err := runApp(t, "completion", "powershell"); !isUsage(err) {
		t.Errorf("completion powershell: %v, want bad input", err)
	}
	if _, err := runApp(t, "completion"); !isUsage(err) {
		t.Errorf("completion: %v, want bad input", err)
	}
}

// TestBashCompletionCompletes: the bash script, sourced in bash with logbench standing
// for this test's own binary (TestHelperMain), completes a command, an experiment's name
// and a flag, as a user pressing Tab would.
func TestBashCompletionCompletes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	for _, tc := range []struct {
		words []string // the command line, the last word being completed
		want  string
	}{
		{[]string{"logbench", "veri"}, "verify"},
		{[]string{"logbench", "reproduce", "q"}, "qps"},
		{[]string{"logbench", "run", "line"}, "line-cost"},
		{[]string{"logbench", "verify", "--ke"}, "--key"},
		{[]string{"logbench", "verify", "--qu"}, "--quiet"},
		{[]string{"logbench", "compare", "--for"}, "--format"},
		{[]string{"logbench", "reproduce", "qps", "--dur"}, "--duration"},
		{[]string{"logbench", "completion", "f"}, "fish"},
	} {
		t.Run(strings.Join(tc.words, " "), func(t *testing.T) {
			script := bashCompletion + `
logbench() { local IFS=$'\x1f'; ` + mainArgsEnv + `="$*" "$TEST_BINARY" -test.run='^TestHelperMain$'; }
COMP_WORDS=(` + strings.Join(tc.words, " ") + `)
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_logbench_complete
printf '%s\n' "${COMPREPLY[@]}"
`
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
			cmd.Env = append(os.Environ(), "TEST_BINARY="+os.Args[0])
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if have := strings.Fields(string(out)); len(have) != 1 || have[0] != tc.want {
				t.Errorf("completes to %q, want %q", have, tc.want)
			}
		})
	}
}

// isUsage says whether err is bad input (exit status 2).
func isUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}
