#!/usr/bin/env bash
# featurelab serve: a run being written (a failed job, an unfinished one whose metrics.jsonl grows) and a second run,
# served on loopback. The page and Chart.js come from the command's own files; /api answers jobs, series (mean ± std
# per sweep point), finals, assertions, the two runs' differences; a value appended to a job's metrics.jsonl is
# served within 2 s; bad requests get a JSON error with the reason, never a crash; a directory that is not a run and a
# port in use are refused at the start; SIGTERM ends it.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml   # widths 8, 40 × seeds 0, 1; 60 steps, evaluated every 20

expect 0 "" -- $fl run "$sweep" --out "$work/done" -q
expect 0 "" -- $fl run "$sweep" --out "$work/slower" -q --set optimizer.lr=0.05
# The live run: job 2 failed, job 3 not finished (its last two records not written yet).
cp -r "$work/done" "$work/live"
rm -f "$work/live/summary.csv" "$work/live/asserts.json" "$work"/live/jobs/0002-*/done "$work"/live/jobs/0003-*/done "$work"/live/jobs/0003-*/summary.json
jq '.status = "failed" | .error = "killed (signal 9) by the out-of-memory killer"' "$work"/live/jobs/0002-*/summary.json >"$work/s" &&
  mv "$work/s" "$(ls "$work"/live/jobs/0002-*/summary.json)"
job3=$(ls -d "$work"/live/jobs/0003-*)
head -n -2 "$job3/metrics.jsonl" >"$work/m" && mv "$work/m" "$job3/metrics.jsonl"

# A run branched from the first run's job 0 (its saved weights): serve shows where its weights came from.
expect 0 "" -- $fl run "$sweep" --out "$work/saved" -q --save-params final
expect 0 "" -- $fl run "$sweep" --out "$work/branched" -q --set 'experiment.seeds=[0]' --set 'sweep.model.width=[8]' \
  --set "model.init_from=\"$(ls -d "$work"/saved/jobs/0000-*)\"" --set 'assert=[]'
$fl serve "$work/live" "$work/slower" "$work/branched" --port 0 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q 'serving' "$work/serve.log" && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | cut -d: -f3)
check "it listens on loopback and says where" test -n "$port"
url=http://127.0.0.1:$port
get() { curl -s --path-as-is -o "$work/body" -w '%{http_code}' "$url$1"; }
export -f get
export url work

check "the page" bash -c "[[ \$(curl -s -o '$work/page' -w '%{http_code}' '$url/') == 200 ]] && grep -q '<canvas id=\"chart\"' '$work/page'"
check "Chart.js from the command's own files" bash -c "curl -s '$url/chart.js' | head -c 300 | grep -q 'Chart.js v3'"
check "two runs, the live one's jobs by state" bash -c "[[ \$(get /api/runs) == 200 ]] &&
  jq -e 'length == 3 and .[0].states.failed == 1 and .[0].states.ok == 2 and .[0].states.unfinished == 1 and
         (.[0].metrics | index(\"accuracy.test\")) != null' '$work/body' >/dev/null"
check "the failed job's reason in the jobs table" bash -c "[[ \$(get /api/runs/0/jobs) == 200 ]] &&
  jq -e '.[2].state == \"failed\" and (.[2].reason | test(\"out-of-memory\")) and .[3].state == \"unfinished\" and .[0].steps == 60' '$work/body' >/dev/null"
check "the series: per width, steps with mean and its band" bash -c "[[ \$(get '/api/runs/0/series?metric=accuracy.test') == 200 ]] &&
  jq -e 'length == 2 and (.[0].step | index(60)) != null and (.[0].mean | length) == (.[0].low | length) and .[0].label == \"model.width=8\"' '$work/body' >/dev/null"
# A value written now is served within 2 s.
echo '{"step":80,"metric":"accuracy.test","value":0.5}' >>"$job3/metrics.jsonl"
sleep 2
check "a value appended to metrics.jsonl is served within 2 s" bash -c "get '/api/runs/0/series?metric=accuracy.test' >/dev/null &&
  jq -e '.[1].step | index(80) != null' '$work/body' >/dev/null"
check "finals: per sweep point, the finished jobs' means" bash -c "[[ \$(get /api/runs/1/finals) == 200 ]] &&
  jq -e 'length == 2 and .[0].jobs == 2 and (.[0].metrics[\"accuracy.test\"] | type) == \"number\"' '$work/body' >/dev/null"
check "assertions: the finished run's, and why the live one has none yet" bash -c "get /api/runs/1/assertions >/dev/null &&
  jq -e '(.asserts | length) == 2' '$work/body' >/dev/null && get /api/runs/0/assertions >/dev/null &&
  jq -e '.note | test(\"not evaluated yet\")' '$work/body' >/dev/null"
check "the runs' differences: the learning rate" bash -c "[[ \$(get '/api/diff?a=0&b=1') == 200 ]] &&
  jq -e '.differences | map(.key) | index(\"optimizer.lr\") != null' '$work/body' >/dev/null"
check "a branched job's lineage in the jobs table" bash -c "[[ \$(get /api/runs/2/jobs) == 200 ]] &&
  jq -e '.[0].init_from | test(\"/saved/jobs/0000-[0-9a-f]+ step 60\")' '$work/body' >/dev/null"
check "provenance: the overrides" bash -c "get /api/runs/1/provenance >/dev/null && jq -e '.overrides == [\"optimizer.lr=0.05\"]' '$work/body' >/dev/null"
# Bad requests: an error with the reason, and the server goes on.
check "no run 7: 404 naming the runs there" bash -c "[[ \$(get /api/runs/7/jobs) == 404 ]] && jq -e '.error | test(\"runs 0 to 2\")' '$work/body' >/dev/null"
check "a series without a metric: 400" bash -c "[[ \$(get /api/runs/0/series) == 400 ]] && jq -e '.error | test(\"metric=NAME\")' '$work/body' >/dev/null"
check "a malformed diff: 400" bash -c "[[ \$(get '/api/diff?a=x&b=1') == 400 ]]"
check "a path outside: 404, nothing read" bash -c "[[ \$(get /../../etc/passwd) == 404 ]] && ! grep -q root: '$work/body'"
check "an unknown page: 404" bash -c "[[ \$(get /api/runs/0/nothing) == 404 ]]"
# Damage while serving: lines that are not records; the run is still served, with the problem named.
printf 'not json\n{"step":' >>"$job3/metrics.jsonl"
printf 'garbage\n' >>"$job3/metrics.jsonl"
sleep 1
check "a damaged metrics.jsonl: still served, the problem named" bash -c "[[ \$(get /api/runs) == 200 ]] && jq -e '.[0].problem | test(\"not a record\")' '$work/body' >/dev/null"
check "the server is alive" kill -0 $server
expect 2 "serve: cannot listen on 127.0.0.1:$port .*--port 0" -- $fl serve "$work/done" --port "$port"
expect 2 "not a featurelab run directory" -- $fl serve "$work" --port 0
kill -TERM $server
for _ in $(seq 30); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
check "SIGTERM ends it" bash -c "! kill -0 $server 2>/dev/null"
wait $server
check "with exit status 0" test $? -eq 0

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
