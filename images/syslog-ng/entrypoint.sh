# The syslog-ng receiver's entrypoint (run by /bin/sh). The port and the queue have no
# default: the kit always sets them, and a missing one stops the container with its name.
: "${LOGBENCH_SYSLOG_PORT:?is not set}" "${LOGBENCH_QUEUE_MESSAGES:?is not set}" "${LOGBENCH_FIFO:?is not set}"
# syslog-ng divides a TCP source's log-iw-size among its max-connections(10).
export LOGBENCH_SYSLOG_NG_TCP_WINDOW=$((LOGBENCH_QUEUE_MESSAGES * 10))
# -F: foreground; -e: its own messages on stderr; --no-caps: it has no capabilities to
# drop. syslog-ng must keep a persist file and a control socket: both go on the run's
# volume, the one writable place. syslog-ng always writes a pid file: /dev/null takes it
# (removing it at exit fails, which syslog-ng only reports).
exec /usr/sbin/syslog-ng -F -e --no-caps -f /etc/logbench/syslog-ng.conf \
	--persist-file=/run/logbench/syslog-ng.persist --control=/run/logbench/syslog-ng.ctl --pidfile=/dev/null
