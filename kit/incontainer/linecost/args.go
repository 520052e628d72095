package linecost

import (
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// DefaultArgs are the Go program's command-line defaults (contract.LineCostArgs),
// writing to dir: DefaultConfig's, the first Go library, its own line, and the document
// to standard output. The defaults live here, beside the configuration they fill.
func DefaultArgs(dir string) contract.LineCostArgs {
	c := DefaultConfig(dir)
	return contract.LineCostArgs{
		Library: DefaultLibrary("go").ID, Line: LineDefault, Ways: strings.Join(c.Ways, ","),
		Lines: c.Lines, Trials: c.Trials, Warmup: c.Warmup, Dir: c.Dir, Out: "-",
		QueueSize: c.QueueSize, QueueFull: c.QueueFull,
	}
}

// ConfigOf is the configuration a command line asks for: DefaultConfig in a's
// directory, with a's library, line, ways, counts and queue (Validate says what is
// wrong with it).
func ConfigOf(a contract.LineCostArgs) Config {
	c := DefaultConfig(a.Dir)
	c.Library, c.Line, c.Ways = a.Library, a.Line, strings.Split(a.Ways, ",")
	c.Lines, c.Trials, c.Warmup = a.Lines, a.Trials, a.Warmup
	c.QueueSize, c.QueueFull = a.QueueSize, a.QueueFull
	return c
}
