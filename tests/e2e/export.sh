#!/usr/bin/env bash
# featurelab export: a 2-point × 2-seed sweep as one long table of every recorded metric and one of final
# values, in CSV, JSON lines and SQLite, read back by other tools (awk, jq, sqlite3) and checked against the
# run's own files: every metrics.jsonl line is a row, and the final values' mean per point is summary.csv's.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml

expect 0 "" -- $fl run "$sweep" --out "$work/run" -q
lines=$(cat "$work"/run/jobs/*/metrics.jsonl | wc -l)

expect 0 "metrics.csv" -- $fl export "$work/run" --out "$work/csv"
check "the long table's header: the job's columns, the sweep axis, step, metric, value" \
  test "$(head -1 "$work/csv/metrics.csv")" = "run,job,job_id,seed,point,status,model.width,step,metric,value,source"
check "the final table's header" test "$(head -1 "$work/csv/final.csv")" = "run,job,job_id,seed,point,status,model.width,metric,value,source"
check "one CSV row per metrics.jsonl line ($lines)" test "$(($(wc -l <"$work/csv/metrics.csv") - 1))" -eq "$lines"
# The mean over seeds of the final accuracy.test at width 40, from the export and from summary.csv (%.12g).
mean_csv=$(awk -F, '$7 == 40 && $8 == "accuracy.test" { s += $9; n++ } END { printf "%.12g", s / n }' "$work/csv/final.csv")
mean_summary=$(awk -F, '$2 == 40 && $3 == "accuracy.test" { printf "%.12g", $5 }' "$work/run/summary.csv")
check "final.csv's mean over seeds at width 40 is summary.csv's ($mean_csv, $mean_summary)" test "$mean_csv" = "$mean_summary"

expect 0 "metrics.jsonl" -- $fl export "$work/run" --out "$work/jsonl" --format jsonl -q
check "one JSON line per metrics.jsonl line" test "$(wc -l <"$work/jsonl/metrics.jsonl")" -eq "$lines"
mean_jsonl=$(jq -s '[.[] | select(."model.width" == 40 and .metric == "accuracy.test") | .value] | add / length' "$work/jsonl/final.jsonl")
check "the JSON lines' mean is the same ($mean_jsonl)" test "$(printf '%.12g' "$mean_jsonl")" = "$mean_summary"
check "a sweep value is a JSON number, the seed too" bash -c "head -1 '$work/jsonl/metrics.jsonl' | jq -e '(.\"model.width\" | type) == \"number\" and (.seed | type) == \"number\"' >/dev/null"

expect 0 "featurelab.sqlite" -- $fl export "$work/run" --out "$work/db" --format sqlite -q
db=$work/db/featurelab.sqlite
check "the SQLite metrics table has every line" test "$(sqlite3 "$db" 'select count(*) from metrics')" -eq "$lines"
check "and 4 jobs" test "$(sqlite3 "$db" 'select count(*) from jobs')" -eq 4
mean_sql=$(sqlite3 "$db" "select printf('%.12g', avg(value)) from final where \"model.width\" = 40 and metric = 'accuracy.test'")
check "SQL's mean is the same ($mean_sql)" test "$mean_sql" = "$mean_summary"

# --metric keeps the matching metrics; a pattern that matches none is refused with the recorded names.
expect 0 "" -- $fl export "$work/run" --out "$work/some" --metric 'accuracy.*' -q
check "--metric 'accuracy.*' keeps accuracy.train and accuracy.test only" \
  test "$(cut -d, -f8 "$work/some/final.csv" | sort -u | tr '\n' ' ')" = "accuracy.test accuracy.train metric "
expect 2 "--metric 'acc' matches no metric of 1 run\(s\); recorded: accuracy.test, accuracy.train" -- \
  $fl export "$work/run" --out "$work/none" --metric acc
expect 2 "not a featurelab run directory" -- $fl export "$work" --out "$work/none"
expect 2 "expected csv, jsonl or sqlite|--format" -- $fl export "$work/run" --out "$work/none" --format parquet
check "a refused export writes nothing" test ! -e "$work/none"

# A finished job's metrics.jsonl that changed after it ended is damage, never data: every reader names the file and
# the line, and none emits the job's values (docs/reliability.md §1). summary.json records the file's line count and
# sha256 ("metrics_file").
check "summary.json records metrics.jsonl's lines and sha256" bash -c "cd '$work'/run/jobs/0000-* &&
  test \"\$(jq -r .metrics_file.lines summary.json)\" = \"\$(wc -l <metrics.jsonl)\" &&
  test \"\$(jq -r .metrics_file.sha256 summary.json)\" = \"\$(sha256sum metrics.jsonl | cut -c1-64)\""
cp -r "$work/run" "$work/broken"
sed -i '5s/.*/{"step":20,"metric":"broken"/' "$work"/broken/jobs/0000-*/metrics.jsonl
expect 2 "jobs/0000-[0-9a-f]*/metrics.jsonl: damaged after the job finished: line 5 is not a whole record" -- \
  $fl export "$work/broken" --out "$work/none"
expect 1 "metrics.jsonl: damaged after the job finished: line 5 .*remove .*/done and resume" -- $fl collect "$work/broken"
check "collect's summary.csv leaves the damaged job out of width 8's mean (n = 1)" \
  grep -q '^0,8,accuracy.test,1,' "$work/broken/summary.csv"
cp -r "$work/run" "$work/cut"
head -n -3 "$work"/cut/jobs/0001-*/metrics.jsonl >"$work/lines" && cat "$work/lines" >"$work"/cut/jobs/0001-*/metrics.jsonl
expect 2 "0001-[0-9a-f]*/metrics.jsonl: damaged .*holds $(wc -l <"$work/lines") lines where the job wrote" -- \
  $fl export "$work/cut" --out "$work/none"
cp -r "$work/run" "$work/edited"
sed -i '$s/"value":[^}]*/"value":0.123456/' "$work"/edited/jobs/0002-*/metrics.jsonl
expect 2 "0002-[0-9a-f]*/metrics.jsonl: damaged .*a line was changed" -- $fl export "$work/edited" --out "$work/none"
expect 2 "damaged" -- $fl plot "$work/edited"
# A summary.json from before the record: the last value of each metric must be its recorded final.
for job in "$work"/edited/jobs/0002-*; do jq 'del(.metrics_file)' "$job/summary.json" >"$work/s" && mv "$work/s" "$job/summary.json"; done
expect 2 "0002-[0-9a-f]*/metrics.jsonl: damaged .*its last value of '[a-z.=0-9-]*' is 0.123456 at step 60, summary.json's \"final\" records" -- \
  $fl export "$work/edited" --out "$work/none"
check "a refused export writes nothing" test ! -e "$work/none"

# Several runs: one table, a run column; an interrupted job's recorded steps are exported with its status.
cp -r "$work/run" "$work/part"
rm "$work"/part/jobs/0003-*/summary.json "$work"/part/jobs/0003-*/done
printf '{"step":60,"metric":"accu' >>"$work"/part/jobs/0003-*/metrics.jsonl  # an unfinished job's line cut by a kill
expect 0 "" -- $fl export "$work/run" "$work/part" --out "$work/both" -q
check "both runs in the long table" test "$(cut -d, -f1 "$work/both/metrics.csv" | sort -u | wc -l)" -eq 3
check "the unfinished job is there, with its status, and without final values" bash -c \
  "grep -q '^$work/part,3,[0-9a-f]*,1,1,unfinished,40,60,accuracy.test,' '$work/both/metrics.csv' && ! grep -q '^$work/part,3,' '$work/both/final.csv'"

# Runs that differ in a setting no sweep sets: the setting is a column, each run's value in it; a setting the
# runs share, and the assertions, are not.
expect 0 "" -- $fl run "$sweep" --out "$work/slower" --set optimizer.lr=0.05 --set 'experiment.seeds=[0]' -q
expect 0 "" -- $fl export "$work/run" "$work/slower" --out "$work/settings" -q
check "the header: the sweep axis, then the settings that differ (seeds and learning rate)" \
  test "$(head -1 "$work/settings/final.csv")" = "run,job,job_id,seed,point,status,model.width,experiment.seeds,optimizer.lr,metric,value,source"
check "each run's learning rate in its rows" bash -c \
  "grep -q '^$work/run,0,[0-9a-f]*,0,0,ok,8,\"\\[0, 1\\]\",0.1,' '$work/settings/final.csv' && grep -q '^$work/slower,1,[0-9a-f]*,0,1,ok,40,\\[0\\],0.05,' '$work/settings/final.csv'"

# featurelab eval's measurements on saved weights are rows of their own, source "eval/NAME", beside the run's.
expect 0 "" -- $fl run "$sweep" --out "$work/saved" --set 'experiment.seeds=[0]' --save-params final -q
expect 0 "2 job\(s\) measured" -- $fl eval "$work/saved"
expect 0 "" -- $fl export "$work/saved" --out "$work/evals" -q
eval_lines=$(cat "$work"/saved/jobs/*/eval/probes/metrics.jsonl | wc -l)
check "one eval/probes row per line of the evaluations' metrics.jsonl ($eval_lines)" \
  test "$(grep -c ',eval/probes$' "$work/evals/metrics.csv")" -eq "$eval_lines"
check "the run's own rows say run" test "$(grep -c ',run$' "$work/evals/metrics.csv")" -eq "$(cat "$work"/saved/jobs/*/metrics.jsonl | wc -l)"
# The same weights, the same probe: eval's final accuracy.test is the run's, job by job.
check "eval's final accuracy.test equals the run's in final.csv" bash -c "
  diff <(awk -F, '\$8 == \"accuracy.test\" && \$10 == \"run\" { print \$2, \$9 }' '$work/evals/final.csv') \
       <(awk -F, '\$8 == \"accuracy.test\" && \$10 == \"eval/probes\" { print \$2, \$9 }' '$work/evals/final.csv') &&
  test \$(grep -c ',accuracy.test,.*,eval/probes\$' '$work/evals/final.csv') -eq 2"
expect 0 "" -- $fl export "$work/saved" --out "$work/evals-db" --format sqlite -q
check "SQLite's final table has a source column" \
  test "$(sqlite3 "$work/evals-db/featurelab.sqlite" "select count(*) from final where source = 'eval/probes'")" -gt 0
sed -i '1s/.*/{"step":0,"metric":"broken"/' "$work"/saved/jobs/0001-*/eval/probes/metrics.jsonl
expect 2 "0001-[0-9a-f]*/eval/probes/metrics.jsonl: damaged after the job finished: line 1 .*measure it again with featurelab eval .* --name probes --indices 1" -- \
  $fl export "$work/saved" --out "$work/none"

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
