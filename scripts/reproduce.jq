# Renders plugins/<pack>/RESULTS.md for scripts/reproduce.sh, in two passes:
#   jq -n --arg mode pipeline ...: one pipeline's run directory -> {name, section, counts, needs_work}
#   jq -n --arg mode page ...:     those objects (one per pipeline) and the header -> the markdown page
# Inputs ($ARGS.named) of the pipeline pass: name, file (the pipeline's path), and as --slurpfile: meta
# (reproduce.json, written by reproduce.sh), run (run.json), asserts (asserts.json; [] when absent), jobs
# ([{dir, summary}] from jobs/*/summary.json). Of the page pass: pack, and as --slurpfile: pipelines (the
# first pass's objects), missing (names of pipelines not run), header. Assertion values in asserts.json are
# strings ("null" when not finite).

# A number with $k significant digits, as text (scientific outside [1e-4, 1e6)); `sig` is sig(4).
def sig($k):
  if type == "string" then (tonumber? // null) else . end
  | if . == null then "NaN"
    elif . == 0 then "0"
    else
      (if . < 0 then "-" else "" end) as $sign
      | fabs as $x
      | ($x | log10 | floor) as $e0
      | (($x / pow(10; $e0 - $k + 1)) | round) as $m0
      # rounding may carry into one more digit (9999.7 -> 10000)
      | (if $m0 >= pow(10; $k) then [($m0 / 10 | round), $e0 + 1] else [$m0, $e0] end) as [$m, $e]
      | ($m | tostring) as $d
      | $sign + (
          if $e >= 6 or $e < -4 then ($d[0:1] + "." + $d[1:] | sub("\\.?0+$"; "")) + "e" + ($e | tostring)
          elif $e >= $k - 1 then $d + ("0" * ($e - $k + 1) // "")
          elif $e >= 0 then $d[0:$e + 1] + "." + $d[$e + 1:] | sub("\\.?0+$"; "")
          else "0." + ("0" * (-$e - 1) // "") + $d | sub("0+$"; "")
          end)
    end;
def sig: sig(4);

# Wall time in words: 0.4 s, 42 s, 2 min 34 s, 1 h 05 min.
def duration:
  if . < 10 then "\(. * 10 | round / 10) s"
  elif . < 60 then "\(round) s"
  elif . < 3600 then "\(. / 60 | floor) min \(. % 60 | round) s"
  else "\(. / 3600 | floor) h \((. % 3600) / 60 | floor | tostring | if length < 2 then "0" + . else . end) min"
  end;

# Markdown table cell: no pipes, no newlines.
def cell: tostring | gsub("\\|"; "\\|") | gsub("\n"; " ");
def code: "`" + (cell) + "`";

# The comparison of an expectation: >=, <=, >, <, == or != (selectors hold only `key=value`).
def op: [match(">=|<=|==|!=|>|<").string][0] // ">=";

# How far a check is from failing, in the units of its sides (negative: it fails).
def margin($op):
  (.lhs | tonumber? // null) as $l | (.rhs | tonumber? // null) as $r
  | if $l == null or $r == null then -infinite
    elif $op == ">=" or $op == ">" then $l - $r
    elif $op == "<=" or $op == "<" then $r - $l
    elif $op == "==" then -(($l - $r) | fabs)
    else (($l - $r) | fabs)
    end;

def where_of: (if .point == "" or .point == null then "" else .point end)
  + (if .seed == null then "" else (if .point == "" or .point == null then "" else ", " end) + "seed \(.seed)" end);

# "lhs vs rhs" of the check nearest to failing (the failing one, if any), and how many there were.
def compared($op):
  if (. // []) | length == 0 then "no check"
  else
    (min_by(margin($op))) as $w
    | "\($w.lhs | sig) vs \($w.rhs | sig)"
      + (if length > 1 or ($w | where_of) != "" then
           " (" + (if length > 1 then "closest of \(length)" else "" end)
           + (if ($w | where_of) != "" then (if length > 1 then ": " else "" end) + ($w | where_of) else "" end) + ")"
         else "" end)
  end;

def describe_assertion:
  (.expect | code)
  + (if .where then "; where `\(.where | cell)`" else "" end)
  + (if .at != "final" then "; at step \(.at)" else "" end)
  + (if .over != "every-seed" then "; over \(.over)" else "" end);

def verdict:
  if .holds then "PASS"
  elif (.checks // [] | map(.holds) | all) and (.missing == null) then "FAIL (a control)"
  else "FAIL" end
  + (if .missing then ": " + (.missing | tostring | cell) else "" end);

# How a run's tree differed from its commit: nothing, or a bold warning (with the changes' hash where the run
# recorded one; runs from before that record say only that there were changes).
def uncommitted:
  if .dirty then " **with uncommitted changes" + (if (.diff_sha256 // "") != "" then " (sha256 `\(.diff_sha256)`)" else "" end)
                 + ": no commit reproduces it exactly**"
  else "" end;

def at_init_text($op):
  if .at_init == null then "— (a trend between steps)"
  elif .at_init.missing != null then "missing: " + (.at_init.missing | tostring | cell)
  else
    (if .at_init.holds then "**holds**" else "fails" end)
    + (if .at_init.declared then " (declared)" else "" end)
    + ": " + (.at_init.checks | compared($op))
  end;

def controls_text($op):
  if (.controls // []) | length == 0 then "none"
  else .controls | map("`\(.control | cell)`: " + (if .fails_there then "fails there" else "**holds there**" end)
                       + " (" + (.checks | compared($op)) + ")") | join("<br>")
  end;

# Where the jobs' time went, summed over the jobs whose summary.json has "time" (older runs' have not):
# {jobs_s, setup, training, saving, probes, top: {name, seconds}} or null.
def time_spent:
  map(.summary | select(.time)) as $timed
  | if ($timed | length) == 0 then null
    else
      ($timed | map(.time.probes | to_entries[]) | group_by(.key)
       | map({name: .[0].key, seconds: (map(.value.seconds) | add)}) | max_by(.seconds)) as $top
      | { jobs_s: ($timed | map(.seconds) | add),
          setup: ($timed | map(.time.setup) | add),
          training: ($timed | map(.time.training) | add),
          saving: ($timed | map(.time.saving) | add),
          probes: ($timed | map(.time.probes | to_entries | map(.value.seconds) | add // 0) | add),
          top: $top }
    end;

# "training 81 % · probes 17 % (ood-accuracy 12 %) · setup 2 %" of the jobs' summed time.
def time_shares:
  if . == null then "—"
  else . as $t
    | def pct($x): if $t.jobs_s <= 0 then "—"
                  elif $x > 0 and $x / $t.jobs_s < 0.005 then "< 1 %"
                  else "\($x / $t.jobs_s * 100 | round) %" end;
      "training \(pct($t.training)) · probes \(pct($t.probes))"
      + (if $t.top then " (\($t.top.name | cell) \(pct($t.top.seconds)))" else "" end)
      + " · setup \(pct($t.setup))" + (if $t.saving >= 0.005 * $t.jobs_s then " · saving \(pct($t.saving))" else "" end)
  end;

def pipeline_pass:
  $ARGS.named as {$name, $file}
  | $ARGS.named.meta[0] as $meta | $ARGS.named.run[0] as $run
  | $ARGS.named.asserts[0] as $asserts | $ARGS.named.jobs[0] as $jobs
  |   ($asserts | map(. + {op: (.expect | op)})) as $A
  | ($run.jobs | length) as $njobs
  | ($jobs | map(select(.summary.status == "ok")) | length) as $ok
  | {
      total: ($A | length),
      held: ($A | map(select(.holds)) | length),
      at_init: ($A | map(select(.warnings // [] | index("holds at initialisation"))) | length),
      no_control: ($A | map(select(.warnings // [] | index("no control"))) | length),
      failed: ($A | map(select(.holds | not)) | length)
    } as $counts
  | {
      name: $name,
      counts: $counts,
      jobs: $njobs,
      ok: $ok,
      wall_s: $meta.wall_s,
      time: ($jobs | time_spent),
      args: $meta.args,
      rc: $meta.rc,
      needs_work: [ $A | to_entries[]
        | .key as $i | .value as $a
        | ([ (if ($a.holds | not) then "fails" else empty end),
             (if ($a.warnings // [] | index("holds at initialisation")) then "holds at initialisation" else empty end),
             (if ($a.controls // []) | map(select(.fails_there | not)) | length > 0 then "holds at its control" else empty end),
             (if ($a.warnings // [] | index("no control")) then "no control" else empty end) ]) as $why
        | select($why | length > 0)
        | { pipeline: $name, index: ($i + 1), why: $why,
            row: "| [\($name)](#\($name)) | \($i + 1) | \($a | describe_assertion) | \($why | join(", ")) | \($a.checks | compared($a.op)) | \($a | at_init_text($a.op)) |" } ],
      section: ([
        "## \($name)",
        "",
        "`featurelab run \($file)` "
          + (if ($meta.args | length) > 0 then "with `\($meta.args | cell)` " else "" end)
          + "(`--jobs \($meta.jobs)`): **\($njobs) job\(if $njobs == 1 then "" else "s" end)** (\($ok) ok), wall time **\($meta.wall_s | duration)**"
          + (if ($meta.resumed_jobs // 0) > 0 then
               " (resumed after an interruption: \($meta.resumed_jobs) of the jobs had finished before, at the same commit and build, and are not in this time)"
             else "" end)
          + " on \($meta.cores) cores (load average \($meta.load) at the start"
          + (if ($meta.product_kernel // "") != "" then ", products on \($meta.product_kernel)" else "" end)
          + "), exit code \($meta.rc)"
          + (if ($ARGS.named.recollected // "") != "" then " (the run's)" else "" end) + ";"
          + " finished \($meta.date) at commit `\($meta.commit)`\($meta | uncommitted)"
          + (if $meta.build_revision != $meta.commit then ", featurelab built at `\($meta.build_revision)`" else "" end) + ".",
        "",
        (if ($ARGS.named.recollected // "") != "" then
           "**Re-checked, not rerun:** the assertions below were edited after the run and re-evaluated on its jobs by"
           + " `featurelab collect` on \($ARGS.named.recollected); the jobs ran at commit `\($meta.commit)`, and the exit"
           + " code is the run's.", "" else empty end),
        (($jobs | time_spent) as $t | if $t == null then empty else
           "Job time, summed over the jobs: \($t.jobs_s | duration): \($t | time_shares).", "" end),
        (if $counts.total == 0 then "No assertions (or no asserts.json: the run did not finish)."
         else "Assertions: **\($counts.held) of \($counts.total) hold**; \($counts.at_init) hold at initialisation too"
              + " (undeclared), \($counts.no_control) have no control."
              + " Values: the two sides of the comparison, at the check nearest to failing"
              + " (the failing one, if any); at initialisation the same expectation at step 0." end),
        "",
        (if $counts.total == 0 then empty else
          "| # | assertion | verdict | values | at initialisation | control | warnings |",
          "|---|---|---|---|---|---|---|",
          ($A | to_entries[] | .key as $i | .value | .op as $o
           | "| \($i + 1) | \(describe_assertion) | \(verdict) | \(.checks | compared($o)) | \(at_init_text($o)) "
             + "| \(controls_text($o)) | \(.warnings // [] | join(", ") | if . == "" then "—" else . end) |")
        end),
        (if ($jobs | map(select(.summary.status != "ok")) | length) > 0 then
           "", "Jobs not ok:", "",
           ($jobs[] | select(.summary.status != "ok") | "- `\(.dir)`: \(.summary.status)\(if .summary.error then ": " + (.summary.error | tostring | cell) else "" end)")
         else empty end),
        "",
        "<details><summary>Final metrics per sweep point: mean ± std over seeds [min, max]</summary>",
        "",
        ( ($run.jobs | map({key: .dir, value: {point, where: (.assignments | map("\(.[0])=\(.[1] | gsub("^\"|\"$"; ""))") | join(" "))}})
           | from_entries) as $points
          | [ $jobs[] | select(.summary.status == "ok") | $points[.dir] as $p | select($p)
              | {point: $p.point, where: $p.where, final: (.summary.final // {})} ]
          | group_by(.point)[]
          | "\(if .[0].where == "" then "Every job" else "`\(.[0].where | cell)`" end) (\(length) seed\(if length > 1 then "s" else "" end)):",
            "",
            "| metric | value |",
            "|---|---|",
            ( map(.final | to_entries[]) | group_by(.key)[]
              | (map(.value | select(type == "number"))) as $v
              | ($v | length) as $n
              | (if $n > 0 then ($v | add / $n) else null end) as $mean
              | (if $n > 1 then (($v | map((. - $mean) * (. - $mean)) | add) / ($n - 1) | sqrt) else 0 end) as $std
              | "| `\(.[0].key | cell)` | "
                + (if $n == 0 then "NaN"
                   elif $n == 1 or ($v | min) == ($v | max) then ($mean | sig) + (if $n > 1 then " (every seed)" else "" end)
                   else "\($mean | sig) ± \($std | sig(2)) [\($v | min | sig), \($v | max | sig)]" end)
                + (if $n < length then " (\(length - $n) not finite)" else "" end) + " |"),
            ""
        ),
        "</details>",
        ""
      ] | join("\n"))
    };

def page_pass:
  $ARGS.named.pack as $pack | $ARGS.named.pipelines as $pipelines
  | $ARGS.named.missing[0] as $missing | $ARGS.named.header[0] as $header
  |   ($pipelines | map(.counts) | {
      total: (map(.total) | add // 0), held: (map(.held) | add // 0),
      at_init: (map(.at_init) | add // 0), no_control: (map(.no_control) | add // 0)
    }) as $c
  | ($pipelines | map(.needs_work[]) ) as $work
  | [
      "# \($pack): results",
      "",
      "Generated by `make reproduce PACK=\($pack)` (`scripts/reproduce.sh`): do not edit by hand; run it again.",
      "Generated \($header.date) at commit `\($header.commit)`\(if $header.dirty then " **(a tree with uncommitted changes)**" else "" end)"
        + " on \($header.host_cores) cores (\($header.cpu)). Each pipeline ran with `featurelab run --out runs/reproduce/\($pack)/<pipeline>`"
        + " from an empty directory; wall times are of the whole run (every job, then the assertions) on a machine"
        + " that may have been shared: the load average at each start is given.",
      (if ($pipelines | map(select((.args | length) > 0)) | length) > 0 then
         "", "**Reduced runs**: " + ($pipelines | map(select((.args | length) > 0) | "`\(.name)` ran with `\(.args | cell)`") | join("; "))
         + ". Their numbers are not the full pipelines'; the pipelines' own assertions still apply."
       else empty end),
      (if ($missing | length) > 0 then "", "Not run yet: " + ($missing | map("`\(.)`") | join(", ")) + "." else empty end),
      "",
      "## Summary",
      "",
      "The job time column: where the jobs' own time went (summed over jobs; the largest probe named).",
      "",
      "| pipeline | jobs (ok) | wall time | job time | assertions held | hold at initialisation | without control |",
      "|---|---|---|---|---|---|---|",
      ($pipelines[] | "| [\(.name)](#\(.name))\(if (.args | length) > 0 then " (reduced)" else "" end) | \(.jobs) (\(.ok)) "
        + "| \(.wall_s | duration) | \(.time | time_shares) | \(.counts.held) / \(.counts.total) | \(.counts.at_init) | \(.counts.no_control) |"),
      "| **all** | \($pipelines | map(.jobs) | add // 0) (\($pipelines | map(.ok) | add // 0)) "
        + "| \($pipelines | map(.wall_s) | add // 0 | duration) | | \($c.held) / \($c.total) | \($c.at_init) | \($c.no_control) |",
      "",
      "## Assertions that need work",
      "",
      "An assertion checks something only if it can fail: if it already holds at initialisation (step 0, before"
        + " any training) it may check nothing, and one without a `control` (a sweep point or step where the same"
        + " expectation must fail) is not shown to separate the effect from its absence. Listed: every assertion"
        + " of this pack that fails, holds at initialisation without declaring `holds_at_init = true`, holds at"
        + " its control, or has no control: \($work | length) of \($c.total)"
        + " (\($c.at_init) hold at initialisation, \($c.no_control) have no control).",
      "",
      ($work | map(select(.why != ["no control"]))) as $serious
      | ($work | map(select(.why == ["no control"]))) as $uncontrolled
      | "### Fail, hold at initialisation, or hold at their control (\($serious | length))",
        "",
        (if ($serious | length) == 0 then "None." else
          "| pipeline | # | assertion | why | values | at initialisation |",
          "|---|---|---|---|---|---|",
          ($serious[] | .row)
        end),
        "",
        "### No control, otherwise sound (\($uncontrolled | length))",
        "",
        "Each fails at initialisation, so training made it true, or declares that it is about the initial state (`holds_at_init = true`: a property of the random initialisation or an invariant); a control would show what makes it true.",
        "",
        (if ($uncontrolled | length) == 0 then "None." else
          "| pipeline | # | assertion | why | values | at initialisation |",
          "|---|---|---|---|---|---|",
          ($uncontrolled[] | .row)
        end),
      "",
      ($pipelines[] | .section)
    ] | join("\n");

if $ARGS.named.mode == "pipeline" then pipeline_pass else page_pass end
