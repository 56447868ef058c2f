#!/bin/sh
# history-cluster.sh - store many logs in one run history from many
# machines: tprof only has to be idempotent and safe under concurrency
# (one transaction per run, a unique content hash); the distribution is
# left to the engines that already do it.
#
#   TPROF_DB=postgresql://tprof@dbhost/tprof export first, then one of:
#
#   sbatch --array=0-99 scripts/history-cluster.sh slurm LIST [ADD-OPTIONS]
#       a Slurm job array: task i of n adds the lines i, i+n, i+2n, ...
#       of LIST (one log path per line, on a file system every node sees)
#   scripts/history-cluster.sh parallel LIST HOSTS [ADD-OPTIONS]
#       GNU parallel over ssh: each line of LIST is added on one of the
#       hosts of HOSTS (a --sshloginfile: "8/node17" = 8 jobs on node17);
#       TPROF_DB travels with --env
#   scripts/history-cluster.sh local LIST JOBS [ADD-OPTIONS]
#       the same on this machine with JOBS processes (xargs -P)
#
# ADD-OPTIONS go to `tprof history add` (--label nightly --meta git=...).
# An add that finds the database unreachable or locked (exit status 5) is
# tried again up to 3 times, 2, 4 and 8 s apart (GNU parallel: --retries 4):
# adding a stored log again is a no-op, so a retry never duplicates a run. TPROF ("tprof" on PATH by
# default) names the program.
#
# Exit status: 0 every log stored (or already there), 1 some log failed,
# 2 bad usage.
#SBATCH --job-name=tprof-history
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
set -u
TPROF=${TPROF:-tprof}

usage() {
	sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# add_one LOG [ADD-OPTIONS]: one log, retried while the database is away
add_one() {
	log=$1
	shift
	for pause in 2 4 8 0; do
		"$TPROF" history add -q "$@" "$log"
		rc=$?
		[ "$rc" = 5 ] && [ "$pause" != 0 ] || return "$rc"
		echo "history-cluster: $log: database unavailable, again in ${pause}s" >&2
		sleep "$pause"
	done
}

[ $# -ge 2 ] || usage
mode=$1
list=$2
shift 2
[ -r "$list" ] || { echo "history-cluster: cannot read $list" >&2; exit 2; }

case $mode in
slurm)
	task=${SLURM_ARRAY_TASK_ID:?not in a Slurm job array (sbatch --array=0-N)}
	min=${SLURM_ARRAY_TASK_MIN:-0}
	count=${SLURM_ARRAY_TASK_COUNT:-1}
	failed=0
	# this task's share: every count-th line, from its place in the array
	awk -v k=$((task - min)) -v n="$count" 'NF && (NR - 1) % n == k' "$list" >"${TMPDIR:-/tmp}/tprof-hc.$$"
	while IFS= read -r log; do
		add_one "$log" "$@" || failed=1
	done <"${TMPDIR:-/tmp}/tprof-hc.$$"
	rm -f "${TMPDIR:-/tmp}/tprof-hc.$$"
	exit $failed
	;;
parallel)
	[ $# -ge 1 ] || usage
	hosts=$1
	shift
	command -v parallel >/dev/null || { echo "history-cluster: GNU parallel is not installed" >&2; exit 2; }
	# a failed job (the database away) is run again: adds are idempotent
	parallel --env TPROF_DB --sshloginfile "$hosts" --retries 4 --halt never \
		"$TPROF" history add -q "$@" {} <"$list" || exit 1
	;;
local)
	[ $# -ge 1 ] || usage
	jobs=$1
	shift
	export TPROF
	# xargs runs `sh THIS-SCRIPT one LOG ADD-OPTIONS` JOBS at a time
	grep -v '^[[:space:]]*$' "$list" | tr '\n' '\0' |
		xargs -0 -P "$jobs" -I{} sh "$0" one {} "$@" || exit 1
	;;
one) # internal: `local` runs one log through add_one
	add_one "$list" "$@"
	;;
*)
	usage
	;;
esac
