# A single-node Slurm cluster of the test's own, from Debian's packages (munge, slurmctld, slurmd): loopback only,
# its configuration, state, logs and sockets in the test's temporary directory, MaxArraySize=10, stopped at the
# end by the pids its daemons wrote. A test that cannot start it skips (exit 77) saying why.
source "$SOURCE_DIR/tests/e2e/lib.sh"
fl=$FEATURELAB

skip() {
  echo "SKIP: $*"
  exit 77
}

stop_cluster() {
  [[ -n ${SLURM_CONF:-} ]] && scancel --quiet --user="$(id -un)" 2>/dev/null
  for daemon in slurmd slurmctld munged; do
    [[ -s $cluster/$daemon.pid ]] && kill "$(cat "$cluster/$daemon.pid")" 2>/dev/null
  done
  for daemon in slurmd slurmctld munged; do
    for _ in $(seq 1 50); do
      [[ -s $cluster/$daemon.pid ]] && kill -0 "$(cat "$cluster/$daemon.pid" 2>/dev/null)" 2>/dev/null || break
      sleep 0.1
    done
  done
  rm -rf "$work"
}

# A TCP port nobody listens on.
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    ! ss -Htln "sport = :$port" | grep -q . && echo "$port" && return
  done
}

start_cluster() {
  for program in munged mungekey slurmctld slurmd sbatch scontrol squeue sinfo scancel; do
    command -v "$program" >/dev/null ||
      skip "$program is not installed (Debian packages munge, slurmctld, slurmd, slurm-client; make deps installs them)"
  done
  [[ $(id -u) -eq 0 ]] || skip "slurmd runs jobs as their users only when started as root; run the slurm: tests as root"
  cluster=$work/cluster
  mkdir -p "$cluster/state" "$cluster/spool"
  trap stop_cluster EXIT
  mungekey --create --keyfile="$cluster/munge.key" --force >/dev/null 2>&1 || skip "mungekey cannot make a key"
  chmod 600 "$cluster/munge.key"
  munged --force --socket="$cluster/munge.socket" --key-file="$cluster/munge.key" --pid-file="$cluster/munged.pid" \
    --log-file="$cluster/munged.log" --seed-file="$cluster/munged.seed" ||
    skip "munged does not start: $(tail -2 "$cluster/munged.log" 2>/dev/null)"
  local host
  host=$(hostname -s)
  cat >"$cluster/slurm.conf" <<CONF
ClusterName=featurelab-test
SlurmctldHost=$host
SlurmctldAddr=127.0.0.1
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$cluster/munge.socket
CredType=cred/munge
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,bf_interval=1
MaxArraySize=10
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
InactiveLimit=0
MinJobAge=600
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$cluster/slurm.conf
  slurmctld -f "$SLURM_CONF" -i || skip "slurmctld does not start: $(tail -3 "$cluster/slurmctld.log" 2>/dev/null)"
  slurmd -f "$SLURM_CONF" || skip "slurmd does not start: $(tail -3 "$cluster/slurmd.log" 2>/dev/null)"
  for _ in $(seq 1 150); do
    [[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && return 0
    sleep 0.2
  done
  skip "the node is not idle after 30 s ($(sinfo -h -o %T 2>&1)): $(tail -3 "$cluster/slurmd.log" 2>/dev/null)"
}

# settled JOBID [SECONDS]: every task of the job (an array) has ended (default 120 s at most). Asked of slurmctld's
# job records (kept MinJobAge = 600 s), not of squeue's list: an squeue that fails under load prints nothing, which
# read as "ended" once, and a task just requeued is a record in state PENDING, never an absence.
settled() {
  local states
  for _ in $(seq 1 $((${2:-120} * 5))); do
    if states=$(scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2) && [[ -n $states ]] &&
      ! grep -qvE '^(COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY)$' <<<"$states"; then
      return 0
    fi
    sleep 0.2
  done
  echo "job $1 still queued or running:"; scontrol show job -o "$1"
  return 1
}

# The array job ids `featurelab submit` printed ("submitted array 12 (...)").
submitted_ids() { sed -n 's/.*submitted array \([0-9]*\) .*/\1/p' <<<"$1"; }

# same_results A B: every job's metrics.jsonl and the run's summary.csv are byte-identical in run directories A, B.
same_results() {
  local a=$1 b=$2 job
  cmp -s "$a/summary.csv" "$b/summary.csv" || { echo "summary.csv differs"; diff "$a/summary.csv" "$b/summary.csv" | head; return 1; }
  for job in "$a"/jobs/*/; do
    cmp -s "$job/metrics.jsonl" "$b/jobs/$(basename "$job")/metrics.jsonl" || { echo "$(basename "$job")/metrics.jsonl differs"; return 1; }
  done
}
