#!/bin/sh
# Runs a command while LOAD (default 8) busy processes keep every core
# busy, as on a loaded machine, and kills them when the command ends,
# however it ends (an error, Ctrl-C, SIGTERM); exits with its status.
# `make check-loaded` runs `make check` so: the suite must not depend on
# the machine's speed.
#   tools/loaded.sh COMMAND [ARGS...]
[ $# -gt 0 ] || { echo "usage: tools/loaded.sh COMMAND [ARGS...]" >&2; exit 2; }
n=${LOAD:-8}
case $n in
''|*[!0-9]*) echo "loaded: LOAD=$n is not a whole number" >&2; exit 2 ;;
esac
pids=""
stop() {
	[ -z "$pids" ] || kill $pids 2>/dev/null
	wait $pids 2>/dev/null
	pids=""
}
trap 'stop' EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
i=0
while [ "$i" -lt "$n" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "loaded: $n busy processes running (pids$pids)"
start=$(date +%s)
"$@"
rc=$?
stop
echo "loaded: the command took $(($(date +%s) - start)) s under a load of $n; the busy processes are stopped"
exit "$rc"
