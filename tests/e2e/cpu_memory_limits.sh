#!/usr/bin/env bash
# Workers and threads follow the CPUs the run may use (its affinity, a cgroup CPU quota), not the
# machine's count or an oversized --jobs; --job-memory is a limit the same job meets whatever
# --jobs hands it, and nonsense limits are refused; a job the out-of-memory killer ends says so.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cgroup_lib.sh"
fl=$FEATURELAB
xor=$SOURCE_DIR/tests/data/xor-small.toml

# The default --jobs is the CPUs this process may use: one under taskset.
first_cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
two=(--set 'experiment.seeds=[0, 1]')
expect 0 "2 job\(s\) .*, 1 worker\(s\)" -- taskset -c "$first_cpu" $fl run "$xor" --out "$work/taskset" "${two[@]}"
# ... and under a cgroup CPU quota of one CPU (docker --cpus=1, a Kubernetes limit).
if make_cgroup cpu; then
  if [[ -f $cgroup_dir/cpu.max ]]; then
    echo "100000 100000" >"$cgroup_dir/cpu.max"
  else
    echo 100000 >"$cgroup_dir/cpu.cfs_period_us"
    echo 100000 >"$cgroup_dir/cpu.cfs_quota_us"
  fi
  expect 0 "2 job\(s\) .*, 1 worker\(s\)" -- in_cgroup "$cgroup_dir" $fl run "$xor" --out "$work/quota" "${two[@]}"
else
  echo "note: CPU quota not tested (needs root and a cpu cgroup)"
fi

# --jobs beyond the allowed CPUs: a warning, and no more workers than CPUs; beyond any machine: refused.
cpus=$(nproc)
many=64
[[ $cpus -ge 64 ]] && many=4096
out=$($fl run "$xor" --out "$work/many" --set 'experiment.seeds=[0, 1, 2]' --jobs $many 2>&1)
status=$?
check "--jobs $many runs (exit $status)" test $status -eq 0
check "--jobs $many warns that only the allowed CPUs are used" grep -qE -- "--jobs $many: this process may use [0-9]+ CPU\(s\) .*running [0-9]+ worker\(s\)" <<<"$out"
workers=$(grep -oE '[0-9]+ worker\(s\), into' <<<"$out" | grep -oE '^[0-9]+')
check "--jobs $many runs at most $cpus workers (ran ${workers:-?})" test "${workers:-999}" -le "$cpus"
expect 2 "--jobs: 100000 is over the bound of 4096 worker processes" -- $fl run "$xor" --out "$work/huge" --jobs 100000
check "a refused --jobs starts nothing" test ! -e "$work/huge"

# --job-memory and --job-timeout values that mean nothing.
expect 2 "--job-memory: 17592186044416 MiB is more than a memory limit can hold \(at most 8796093022208 MiB" -- \
  $fl run "$xor" --out "$work/mem" --job-memory 17592186044416
expect 2 "--job-memory: -1 is not a size" -- $fl run "$xor" --out "$work/mem" --job-memory -1
expect 2 "--job-timeout: nan is not a number of seconds" -- $fl run "$xor" --out "$work/mem" --job-timeout nan
expect 2 "--job-memory: -5 is not a size" -- $fl job "$work/taskset" --index 0 --job-memory -5

# The same job under the same --job-memory passes whatever --jobs hands it threads: the limit
# counts the memory it commits, not the address space its threads reserve. 250 MiB once failed
# with --jobs 32; 16 MiB is tight (the job commits a few MiB).
for limit in 250 16; do
  for jobs in 1 2 32; do
    expect 0 "1 ok" -- $fl run "$xor" --out "$work/mem-$limit-$jobs" --set train.steps=300 --job-memory $limit --jobs $jobs
  done
done

# A job killed by the out-of-memory killer (a cgroup's memory limit, as Slurm's --mem sets) is not
# a mystery "signal 9".
if make_cgroup memory; then
  limit=$((300 << 20))
  if [[ -f $cgroup_dir/memory.max ]]; then
    echo $limit >"$cgroup_dir/memory.max"
    echo 0 >"$cgroup_dir/memory.swap.max" 2>/dev/null
  else
    echo $limit >"$cgroup_dir/memory.limit_in_bytes"
    echo $limit >"$cgroup_dir/memory.memsw.limit_in_bytes" 2>/dev/null
  fi
  sed 's/^"model.mode" = .*/"model.mode" = ["leak"]/' "$SOURCE_DIR/tests/data/crash.toml" >"$work/leak.toml"
  expect 1 "failed: killed \(signal 9\) by the out-of-memory killer: the memory limit of this run's cgroup was reached" -- \
    in_cgroup "$cgroup_dir" $fl --plugin-path "$FIXTURE_DIR/fixture" run "$work/leak.toml" --out "$work/oom"
else
  echo "note: out-of-memory kill not tested (needs root and a memory cgroup)"
fi

finish
