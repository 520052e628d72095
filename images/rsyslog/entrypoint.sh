# The rsyslog receiver's entrypoint (run by /bin/sh). The port and the queue have no
# default: the kit always sets them, and a missing one stops the container with its name.
: "${LOGBENCH_SYSLOG_PORT:?is not set}" "${LOGBENCH_QUEUE_MESSAGES:?is not set}"
fifo="${LOGBENCH_FIFO:?is not set}"
# rsyslog's omfile would create a regular file where the FIFO is missing, so the FIFO is
# made here, before the first message; one the reader made first is used as it is.
[ -p "$fifo" ] || /bin/busybox mkfifo -m 0666 "$fifo" || [ -p "$fifo" ] || exit 1
# -n: foreground; -iNONE: no pid file.
exec /usr/sbin/rsyslogd -n -iNONE -f /etc/logbench/rsyslog.conf
