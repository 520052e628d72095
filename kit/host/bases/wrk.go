package bases

import (
	"fmt"

	"github.com/logbench/logbench/kit/host/debian"
)

// Labels of the wrk image: wrk's upstream version ("4.1.0") and the Debian one.
const (
	WrkVersionLabel       = "io.logbench.wrk-version"
	WrkDebianVersionLabel = "io.logbench.wrk-debian-version"
)

// Wrk is Debian bookworm's wrk, the HTTP benchmarking tool the qps experiment checks
// its own closed-loop load against: an instrument the kit did not write, run against
// the same API container. coreutils gives the container's script mkfifo and sleep, so
// that it waits for its turn without spinning (kit/experiments/qps). Unlike the
// other bases it is run as it is, as uid 65532 on a read-only root like every
// container of a pod.
var Wrk = Base{
	Repository: "logbench/wrk",
	Spec: debian.Spec{
		Packages: append([]string{"wrk", "coreutils"}, system...),
		Omit:     omit, Strip: strip, Copies: copies,
	},
	Env: defaultEnv,
	Cmd: []string{"/usr/bin/wrk"},
	labels: func(r debian.Result) (map[string]string, error) {
		v := r.Version("wrk")
		if v == "" {
			return nil, fmt.Errorf("no wrk package in the image")
		}
		return map[string]string{WrkVersionLabel: Upstream(v), WrkDebianVersionLabel: v}, nil
	},
}
