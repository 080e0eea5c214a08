#!/usr/bin/env bash
# Whole reproductions, two builds compared on one machine: every K-th job of every pipeline of a tree's packs,
# run by build A and by build B one after the other (A first for even pipelines, B first for odd ones, so a machine
# drifting over the hour weighs on both), each `featurelab job RUN --indices LIST --jobs N` timed as a whole process.
# A job is timed with everything it does: data generation, training, probes, evaluation, writing metrics.
# The pipelines are the tree's own TOMLs, so both builds run the same pipelines at the same horizons; each build
# prepares its own run directory (run directory formats differ between versions) and the two must agree on the
# number of jobs. Sampling every K-th job in the runs' order (sweep point by point, seeds inside) estimates a
# pipeline's whole run as (its sampled time) × (jobs / sampled jobs); the ratio B / A is measured, not estimated.
#
# Usage: bench/reproduce_ab.sh --a BUILD_A --b BUILD_B --tree DIR [--every K] [--jobs N] [--pipeline NAME]
#                              [--args 'ARGS'] [--out DIR] [PACK...]
#   --a, --b   build directories (each with bin/featurelab and its plugins)
#   --tree     a checkout whose plugins/PACK/pipelines/*.toml are run (e.g. the older commit's, so that both
#              builds can read them); the runs' relative data paths are read from it
#   --every K  run jobs 0, K, 2K, … of each pipeline (default 10), but at least as many jobs as --jobs where the
#              pipeline has them (jobs 0, S, 2S, … with S = jobs / --jobs): a job alone would take every core
#              once the queue is empty, which it never does in a whole run of many jobs
#   --jobs N   jobs at once, as `make reproduce` runs them (default: the cores)
#   --pipeline NAMES only plugins/PACK/pipelines/NAME.toml for these names (comma-separated)
#   --args 'ARGS'    passed to both builds' `featurelab run --prepare`, e.g. a test's reduction:
#                    --args "--set 'experiment.seeds=[0]' --set train.steps=400" (with --every 1: the test's work)
#   --out DIR  run directories and times.tsv (default: a new temporary directory, kept)
#   PACK...    packs to run (default: every pack of the tree with pipelines)
#   --summary TSV...  run nothing: the per-pack table of earlier runs' times.tsv files, a later file's row
#                     replacing an earlier one's for the same pipeline (a pipeline measured again)
# Prints one line per pipeline as it finishes, then per pack: sampled seconds for A and B, B / A, and both
# builds' estimated whole-pack times. times.tsv holds the per-pipeline rows (pack, pipeline, jobs, sampled,
# a_s, b_s, a_failed, b_failed) for pandas. Run it on a quiet machine: it measures the machine too.
# Exit code: 0; 1 if a build failed a job (the row says which); 2 for a bad command line.
set -euo pipefail
a= b= tree= every=10 jobs=$(nproc) out= only= args= packs=() summary=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --a) a=$2; shift 2 ;;
    --b) b=$2; shift 2 ;;
    --tree) tree=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --pipeline) only=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --summary) shift; summary=("$@"); break ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reproduce_ab: unknown option $1 (--help)" >&2; exit 2 ;;
    *) packs+=("$1"); shift ;;
  esac
done
# The per-pack table of times.tsv files: sampled seconds, B / A, and whole packs estimated from the samples.
summarize() {
  awk -F'\t' 'FNR == 1 { next }
    { key = $1 "\t" $2; if (!(key in row)) keys[++rows] = key; row[key] = $0 }
    END {
      for (r = 1; r <= rows; r++) {
        split(row[keys[r]], f, "\t")
        p = f[1]; a[p] += f[5]; b[p] += f[6]; ea[p] += f[5] * f[3] / f[4]; eb[p] += f[6] * f[3] / f[4]
        if (!(p in seen)) { seen[p] = 1; order[++n] = p }
        ta += f[5]; tb += f[6]; tea += f[5] * f[3] / f[4]; teb += f[6] * f[3] / f[4]
        if (f[9] != "-") { split_known[p] = 1; su[p] += f[9]; tr[p] += f[10]; pr[p] += f[11]; sa[p] += f[12] }
      }
      printf "%-24s %10s %10s %6s %16s %16s  %s\n", "pack", "A sampled", "B sampled", "B/A", "A whole (est.)", "B whole (est.)", "B: setup / training / probes / saving"
      for (i = 1; i <= n; i++) { p = order[i]
        printf "%-24s %8.0f s %8.0f s %6.2f %16s %16s  %s\n", p, a[p], b[p], b[p] / a[p], hm(ea[p]), hm(eb[p]),
          split_known[p] ? sprintf("%.0f / %.0f / %.0f / %.0f s", su[p], tr[p], pr[p], sa[p]) : "-" }
      printf "%-24s %8.0f s %8.0f s %6.2f %16s %16s\n", "all", ta, tb, tb / ta, hm(tea), hm(teb)
    }
    function hm(s) { return s >= 3600 ? sprintf("%d h %02d min", s / 3600, (s % 3600) / 60) : sprintf("%d min %02d s", s / 60, s % 60) }' "$@"
}
if [[ ${#summary[@]} -gt 0 ]]; then
  for f in "${summary[@]}"; do [[ -f $f ]] || { echo "reproduce_ab: no times.tsv at $f" >&2; exit 2; }; done
  summarize "${summary[@]}"
  exit 0
fi

for build in "$a" "$b"; do
  [[ -n $build && -x $build/bin/featurelab ]] || { echo "reproduce_ab: give --a and --b, build directories with bin/featurelab" >&2; exit 2; }
done
[[ -n $tree && -d $tree/plugins ]] || { echo "reproduce_ab: --tree must be a checkout with plugins/ (got '$tree')" >&2; exit 2; }
[[ $every =~ ^[1-9][0-9]*$ ]] || { echo "reproduce_ab: --every takes a positive count (got '$every')" >&2; exit 2; }
a=$(cd "$a" && pwd) b=$(cd "$b" && pwd) tree=$(cd "$tree" && pwd)
out=${out:-$(mktemp -d -t reproduce-ab.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ ${#packs[@]} -eq 0 ]]; then
  for dir in "$tree"/plugins/*/; do
    compgen -G "$dir/pipelines/*.toml" >/dev/null && packs+=("$(basename "$dir")")
  done
fi
cd "$tree"
# ARGS as a shell would split it (quotes allowed); no globbing: --set 'x=[0]' stays as written.
set -f
eval "extra=($args)"
set +f
tsv=$out/times.tsv
printf 'pack\tpipeline\tjobs\tsampled\ta_s\tb_s\ta_failed\tb_failed\tb_setup_s\tb_training_s\tb_probes_s\tb_saving_s\n' >"$tsv"
echo "A: $a"
echo "B: $b"
[[ -z $args ]] || echo "args: $args"
echo "tree: $tree at $(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo '?'); jobs 0, $every, $((2 * every)), … of each pipeline (at least $jobs); --jobs $jobs; $(nproc) cores"

# Seconds a build takes to run the listed jobs of its prepared run; the run's failures go to $out/NAME.log.
time_jobs() {
  local build=$1 run=$2 list=$3 log=$4 start end
  start=$(date +%s.%N)
  "$build/bin/featurelab" -q job "$run" --indices "$list" --jobs "$jobs" >"$log" 2>&1 || true
  end=$(date +%s.%N)
  awk -v start="$start" -v end="$end" 'BEGIN { printf "%.3f\n", end - start }'
}
failed_jobs() {  # jobs of the list without a done marker
  local run=$1 list=$2 n=0 i dir
  for i in ${list//,/ }; do
    dir=$(ls -d "$run"/jobs/"$(printf '%04d' "$i")"-* 2>/dev/null | head -1)
    [[ -n $dir && -e $dir/done ]] || n=$((n + 1))
  done
  echo "$n"
}

# Where the sampled jobs of a run spent their time, from each summary.json's "time" (builds that record it):
# "setup training probes saving" in seconds, or "- - - -".
time_split() {
  local run=$1 list=$2 i dir files=()
  for i in ${list//,/ }; do
    dir=$(ls -d "$run"/jobs/"$(printf '%04d' "$i")"-* 2>/dev/null | head -1)
    [[ -n $dir && -e $dir/summary.json ]] && files+=("$dir/summary.json")
  done
  [[ ${#files[@]} -gt 0 ]] || { echo "- - - -"; return; }
  jq -rs 'if all(.[]; has("time")) then
            [(map(.time.setup) | add), (map(.time.training) | add),
             (map([.time.probes[]?.seconds] | add // 0) | add), (map(.time.saving // 0) | add)] | map(. * 100 | round / 100) | join(" ")
          else "- - - -" end' "${files[@]}"
}

status=0
turn=0
for pack in "${packs[@]}"; do
  for toml in plugins/"$pack"/pipelines/*.toml; do
    name=$(basename "$toml" .toml)
    [[ -z $only || ,$only, == *",$name,"* ]] || continue
    for side in a b; do
      build=${!side}
      rm -rf "$out/$side/$pack/$name"
      mkdir -p "$out/$side/$pack"
      "$build/bin/featurelab" -q run "$toml" --out "$out/$side/$pack/$name" --prepare ${extra[@]+"${extra[@]}"} >"$out/$side/$pack/$name.prepare.log" 2>&1 ||
        { echo "reproduce_ab: $side could not prepare $toml: $(tail -c 400 "$out/$side/$pack/$name.prepare.log")" >&2; exit 2; }
    done
    count=$(ls "$out/a/$pack/$name/jobs" | wc -l)
    [[ $count -eq $(ls "$out/b/$pack/$name/jobs" | wc -l) ]] ||
      { echo "reproduce_ab: $toml: the two builds prepare different numbers of jobs" >&2; exit 2; }
    step=$(( count / jobs < every ? count / jobs : every ))
    (( step >= 1 )) || step=1
    list=$(seq -s, 0 "$step" $((count - 1)))
    sampled=$(( (count - 1) / step + 1 ))
    if (( turn % 2 == 0 )); then order="a b"; else order="b a"; fi
    turn=$((turn + 1))
    declare -A secs=() fails=()
    for side in $order; do
      secs[$side]=$(time_jobs "${!side}" "$out/$side/$pack/$name" "$list" "$out/$side/$pack/$name.log")
      fails[$side]=$(failed_jobs "$out/$side/$pack/$name" "$list")
      [[ ${fails[$side]} -eq 0 ]] || status=1
    done
    read -r setup training probes saving < <(time_split "$out/b/$pack/$name" "$list")
    printf '%s\t%s\t%d\t%d\t%.2f\t%.2f\t%d\t%d\t%s\t%s\t%s\t%s\n' "$pack" "$name" "$count" "$sampled" "${secs[a]}" \
      "${secs[b]}" "${fails[a]}" "${fails[b]}" "$setup" "$training" "$probes" "$saving" >>"$tsv"
    printf '%-24s %-32s %4d jobs, %3d run: A %8.1f s  B %8.1f s  B/A %.2f%s\n' "$pack" "$name" "$count" "$sampled" \
      "${secs[a]}" "${secs[b]}" "$(awk -v a="${secs[a]}" -v b="${secs[b]}" 'BEGIN { print (a > 0 ? b / a : 0) }')" \
      "$( ((fails[a] + fails[b] > 0)) && echo "  (failed: A ${fails[a]}, B ${fails[b]})")$(
        [[ $probes != - ]] && awk -v p="$probes" -v t="$training" 'BEGIN { exit !(p > t) }' && echo "  (B: probes $probes s > training $training s)")"
  done
done

echo
summarize "$tsv"
echo "per pipeline: $tsv"
exit $status
