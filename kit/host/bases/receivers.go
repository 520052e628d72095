package bases

import (
	"fmt"

	"github.com/logbench/logbench/kit/host/debian"
)

// Labels of the syslog receivers: each daemon's upstream version ("8.2302.0") and the
// Debian one.
const (
	RsyslogVersionLabel        = "io.logbench.rsyslog-version"
	RsyslogDebianVersionLabel  = "io.logbench.rsyslog-debian-version"
	SyslogNGVersionLabel       = "io.logbench.syslog-ng-version"
	SyslogNGDebianVersionLabel = "io.logbench.syslog-ng-debian-version"
)

// RsyslogTag and SyslogNGTag are the names images/rsyslog/Dockerfile and
// images/syslog-ng/Dockerfile start FROM by default (their BASE argument); the kit
// points each at the base of the platform being built, as it does for the Python base.
const (
	RsyslogTag  = "logbench/rsyslog-base:bookworm"
	SyslogNGTag = "logbench/syslog-ng-base:bookworm"
)

// Rsyslog is Debian bookworm's rsyslog, a syslog receiver of the log-driver
// experiment: the engine's syslog log driver sends the API's lines to it, and it writes
// them to the run's FIFO. The daemon with its loadable modules (imtcp, imudp), no
// logrotate (a Recommends), and busybox (under 1 MB, where coreutils would be 18 MB)
// for the entrypoint's mkfifo: rsyslog's file output, the one that waits at a full
// FIFO, would create a regular file in its place.
var Rsyslog = Base{
	Repository: "logbench/rsyslog-base",
	Spec: debian.Spec{
		Packages: append([]string{"rsyslog", "busybox"}, system...),
		Omit:     omit, Strip: strip, Copies: copies,
	},
	Env: defaultEnv,
	// The base has no configuration of the kit's: images/rsyslog adds it and the
	// command. Run bare, the base tells its version rather than starting Debian's
	// configuration, which wants root, /dev/log and the kernel's log.
	Cmd:    []string{"/usr/sbin/rsyslogd", "-v"},
	labels: versionLabels("rsyslog", RsyslogVersionLabel, RsyslogDebianVersionLabel),
}

// SyslogNG is Debian bookworm's syslog-ng (the syslog-ng-core package: the daemon and
// its core modules, among them the network and pipe drivers), the other syslog
// receiver of the log-driver experiment.
var SyslogNG = Base{
	Repository: "logbench/syslog-ng-base",
	Spec: debian.Spec{
		Packages: append([]string{"syslog-ng-core"}, system...),
		Omit:     omit, Strip: strip, Copies: copies,
	},
	Env:    defaultEnv,
	Cmd:    []string{"/usr/sbin/syslog-ng", "--version"},
	labels: versionLabels("syslog-ng-core", SyslogNGVersionLabel, SyslogNGDebianVersionLabel),
}

// versionLabels records pkg's upstream and Debian versions under the two labels.
func versionLabels(pkg, upstreamLabel, debianLabel string) func(debian.Result) (map[string]string, error) {
	return func(r debian.Result) (map[string]string, error) {
		v := r.Version(pkg)
		if v == "" {
			return nil, fmt.Errorf("no %s package in the image", pkg)
		}
		return map[string]string{upstreamLabel: Upstream(v), debianLabel: v}, nil
	}
}
