package bundle

import (
	"fmt"
	"strconv"

	"github.com/logbench/logbench/kit/contract"
)

// LimitColumns are containers.csv's nofile_limit, nproc_limit ("soft/hard") and
// pids_max columns of a process's limits as it read them; empty when it did not
// report them, and pids_max empty when its cgroup's was not readable.
func LimitColumns(l *contract.Rlimits) (nofile, nproc, pids string) {
	if l == nil {
		return "", "", ""
	}
	if l.NoFileSoft != 0 || l.NoFileHard != 0 {
		nofile = fmt.Sprintf("%d/%d", l.NoFileSoft, l.NoFileHard)
	}
	if l.NProcSoft != 0 || l.NProcHard != 0 {
		nproc = fmt.Sprintf("%d/%d", l.NProcSoft, l.NProcHard)
	}
	if l.PidsMax != 0 {
		pids = strconv.FormatInt(l.PidsMax, 10)
	}
	return nofile, nproc, pids
}
