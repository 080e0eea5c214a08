#!/usr/bin/env bash
# Runs every pipeline of a pack (plugins/<pack>/pipelines/*.toml) from an empty run directory
# runs/reproduce/<pack>/<pipeline>, then writes plugins/<pack>/RESULTS.md from the run directories:
# per pipeline its wall time, jobs, every assertion (values, at initialisation, controls, warnings)
# and its final metrics; per pack the assertions that need work. `make reproduce` calls it.
#
# Usage: scripts/reproduce.sh [--build DIR] [--jobs N] [--pipeline NAME] [--args 'ARGS'] [--results-only] [PACK...]
#   PACK...         packs to run (default: every pack with pipelines)
#   --pipeline N    run only pipelines/N.toml; RESULTS.md still lists the pack's other runs already there (a
#                   warning names those with no run directory: they will read "not run yet")
#   --args 'ARGS'   passed on to `featurelab run`, e.g. --args '--set experiment.seeds=[0]' (a reduction:
#                   RESULTS.md says so for each pipeline run with it)
#   --results-only  run nothing: rewrite RESULTS.md from the run directories already there
#   --keep-finished keep a pipeline whose run directory already holds a finished run (reproduce.json) of this
#                   same commit, clean tree and ARGS: an interrupted `make reproduce` of many packs goes on
#                   where it stopped, and every section still names one commit (the run's own wall time stays);
#                   the pipeline that was interrupted keeps its finished jobs and reruns the others (its wall
#                   time is then the last attempt's, and RESULTS.md says how many jobs finished before it)
#   --allow-dirty   run in a tree with uncommitted changes to anything but documentation (*.md): every section
#                   it writes then says so in bold, with the sha256 of the changes (refused without it)
# Exit code: 0 if every pipeline run exited 0 (jobs ok, assertions held), else 1; 2 for a bad command line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=build
jobs=$(nproc)
only=
args=
results_only=0
keep_finished=0
allow_dirty=0
packs=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --pipeline) only=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --results-only) results_only=1; shift ;;
    --allow-dirty) allow_dirty=1; shift ;;
    --keep-finished) keep_finished=1; shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reproduce: unknown option $1 (--help)" >&2; exit 2 ;;
    *) packs+=("$1"); shift ;;
  esac
done
cd "$root"
[[ $build = /* ]] || build=$root/$build
featurelab=$build/bin/featurelab
command -v jq >/dev/null || { echo "reproduce: jq is missing (make deps installs it)" >&2; exit 2; }
if [[ ${#packs[@]} -eq 0 ]]; then
  for dir in plugins/*/; do
    compgen -G "$dir/pipelines/*.toml" >/dev/null && packs+=("$(basename "$dir")")
  done
fi
for pack in "${packs[@]}"; do
  [[ -d plugins/$pack/pipelines ]] || { echo "reproduce: no pack '$pack' with pipelines under plugins/" >&2; exit 2; }
  if [[ -n $only && ! -f plugins/$pack/pipelines/$only.toml ]]; then
    echo "reproduce: no pipeline plugins/$pack/pipelines/$only.toml" >&2; exit 2
  fi
done
[[ $results_only -eq 1 || -x $featurelab ]] || { echo "reproduce: $featurelab not built (make build)" >&2; exit 2; }
# ARGS as a shell would split it (quotes allowed); no globbing: --set 'x=[0]' stays as written.
set -f
eval "extra=($args)"
set +f

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# A result names the code that made it: changes to code, pipelines, scripts or build files that are not
# committed (untracked files too; documentation, *.md, aside) make a run that no commit reproduces.
changes=$(git status --porcelain 2>/dev/null | grep -vE '\.md"?$' || true)
dirty=false
diff_hash=
if [[ -n $changes ]]; then
  dirty=true
  diff_hash=$({ git diff HEAD --binary -- . ':(exclude)*.md'
                git ls-files --others --exclude-standard -z | { grep -zv '\.md$' || true; } | xargs -0 -r sha256sum; } |
              sha256sum | cut -c1-16)
  if [[ $results_only -eq 0 && $allow_dirty -eq 0 ]]; then
    echo "reproduce: the tree has uncommitted changes, so no commit would reproduce these results:" >&2
    printf '%s\n' "$changes" | head -20 | sed 's/^/  /' >&2
    echo "reproduce: commit them (or stash them) and run again; --allow-dirty runs anyway and marks every section" \
      "it writes in bold with the changes' sha256" >&2
    exit 2
  fi
fi
cores=$(nproc)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
status=0

run_pipeline() {  # run_pipeline PACK FILE
  local pack=$1 file=$2 name out start rc
  name=$(basename "$file" .toml)
  out=runs/reproduce/$pack/$name
  if [[ $keep_finished -eq 1 && -f $out/reproduce.json && -f $out/run.json ]] &&
    jq -e --arg commit "$commit" --arg args "$args" \
      '.commit == $commit and .dirty == false and .args == $args' "$out/reproduce.json" >/dev/null; then
    echo "reproduce: $pack/$name: kept, finished $(jq -r .date "$out/reproduce.json") at commit $commit (exit $(jq -r .rc "$out/reproduce.json"))"
    [[ $(jq -r .rc "$out/reproduce.json") -eq 0 ]] || status=1
    return
  fi
  # An interrupted run of this pipeline at this commit (started here, never finished): with --keep-finished its
  # finished jobs are kept and the others rerun (`featurelab run` resumes a run directory; it refuses another
  # build). Otherwise the pipeline starts from an empty directory.
  local resumed=0
  if [[ $keep_finished -eq 1 && ! -f $out/reproduce.json && -f $out.started.json && -f $out/run.json ]] &&
    jq -e --arg commit "$commit" --arg args "$args" \
      '.commit == $commit and .dirty == false and .args == $args' "$out.started.json" >/dev/null; then
    resumed=$(find "$out/jobs" -name done 2>/dev/null | wc -l)
    echo "reproduce: $pack/$name: resumed, $resumed job(s) finished before it was interrupted at commit $commit"
  else
    rm -rf "$out" "$out.log" "$out.started.json"
    mkdir -p "runs/reproduce/$pack"
    jq -n --arg commit "$commit" --argjson dirty "$dirty" --arg args "$args" \
      --arg date "$(date -u +'%Y-%m-%d %H:%M UTC')" \
      '{commit: $commit, dirty: $dirty, args: $args, date: $date}' >"$out.started.json"
  fi
  echo "reproduce: $pack/$name: featurelab run $file --out $out --jobs $jobs ${extra[*]} (log: $out.log)"
  local load
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
  start=$(date +%s.%N)
  rc=0
  "$featurelab" run "$file" --out "$out" --jobs "$jobs" "${extra[@]}" >>"$out.log" 2>&1 || rc=$?
  local wall
  wall=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
  mkdir -p "$out"
  local revision kernel
  revision=$(jq -r '.git_revision // "unknown"' "$out/manifest.json" 2>/dev/null || echo unknown)
  kernel=$(jq -r '.product_kernel.kernel // "unknown"' "$out/manifest.json" 2>/dev/null || echo unknown)
  jq -n --argjson wall "$wall" --argjson rc "$rc" --arg args "$args" --argjson jobs "$jobs" \
    --arg date "$(date -u +'%Y-%m-%d %H:%M UTC')" --arg commit "$commit" --argjson dirty "$dirty" \
    --arg diff_hash "$diff_hash" --argjson cores "$cores" --arg load "$load" --arg revision "$revision" \
    --argjson resumed "$resumed" --arg kernel "$kernel" \
    '{wall_s: $wall, rc: $rc, args: $args, jobs: $jobs, date: $date, commit: $commit, dirty: $dirty,
      diff_sha256: $diff_hash, cores: $cores, load: $load, build_revision: $revision, resumed_jobs: $resumed,
      product_kernel: $kernel}' \
    >"$out/reproduce.json"
  printf 'reproduce: %s/%s: exit %d, %.1f s\n' "$pack" "$name" "$rc" "$wall"
  [[ $rc -eq 0 ]] || status=1
}

write_results() {  # write_results PACK
  local pack=$1 file name out tmp recollected missing=()
  tmp=$(mktemp -d)
  for file in plugins/"$pack"/pipelines/*.toml; do
    name=$(basename "$file" .toml)
    out=runs/reproduce/$pack/$name
    if [[ ! -f $out/reproduce.json || ! -f $out/run.json ]]; then missing+=("$name"); continue; fi
    if [[ -f $out/asserts.json ]]; then cp "$out/asserts.json" "$tmp/asserts.json"; else echo '[]' >"$tmp/asserts.json"; fi
    # Every job's summary.json with its directory's name (the run.json key to its sweep point).
    for s in "$out"/jobs/*/summary.json; do
      [[ -f $s ]] && jq -c --arg dir "$(basename "$(dirname "$s")")" '{dir: $dir, summary: .}' "$s"
    done | jq -s . >"$tmp/jobs.json"
    # Assertions edited after the run and re-evaluated with `featurelab collect RUN`: the exit code is the run's.
    recollected=
    if [[ $out/asserts.json -nt $out/reproduce.json ]]; then recollected=$(date -u -r "$out/asserts.json" +'%Y-%m-%d %H:%M UTC'); fi
    jq -n --arg mode pipeline --arg name "$name" --arg file "$file" --arg recollected "$recollected" --slurpfile meta "$out/reproduce.json" \
      --slurpfile run "$out/run.json" --slurpfile asserts "$tmp/asserts.json" --slurpfile jobs "$tmp/jobs.json" \
      -f "$root/scripts/reproduce.jq" >>"$tmp/pipelines.json"
  done
  touch "$tmp/pipelines.json"
  if [[ -n $only && ${#missing[@]} -gt 0 ]]; then
    # Run directories are not committed: on a fresh checkout one pipeline's run leaves the others "not run yet".
    echo "reproduce: warning: plugins/$pack/RESULTS.md will list ${missing[*]} as not run yet (no run under" \
      "runs/reproduce/$pack); run the whole pack (make reproduce PACK=$pack), or keep the committed file with" \
      "git checkout plugins/$pack/RESULTS.md" >&2
  fi
  printf '%s\n' "${missing[@]+"${missing[@]}"}" | jq -R . | jq -s 'map(select(. != ""))' >"$tmp/missing.json"
  jq -n --arg date "$(date -u +'%Y-%m-%d %H:%M UTC')" --arg commit "$commit" --argjson dirty "$dirty" \
    --argjson cores "$cores" --arg cpu "${cpu:-unknown CPU}" \
    '{date: $date, commit: $commit, dirty: $dirty, host_cores: $cores, cpu: $cpu}' >"$tmp/header.json"
  jq -n -r --arg mode page --arg pack "$pack" --slurpfile pipelines "$tmp/pipelines.json" \
    --slurpfile missing "$tmp/missing.json" --slurpfile header "$tmp/header.json" \
    -f "$root/scripts/reproduce.jq" >"plugins/$pack/RESULTS.md"
  rm -rf "$tmp"
  echo "reproduce: wrote plugins/$pack/RESULTS.md"
}

for pack in "${packs[@]}"; do
  if [[ $results_only -eq 0 ]]; then
    for file in plugins/"$pack"/pipelines/*.toml; do
      [[ -z $only || $(basename "$file" .toml) == "$only" ]] || continue
      run_pipeline "$pack" "$file"
    done
  fi
  write_results "$pack"
done
exit $status
