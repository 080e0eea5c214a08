#!/usr/bin/env python3
"""Compares the per-pipeline wall times of a pack's RESULTS.md (written by scripts/reproduce.sh) between two
revisions of the repository: per pipeline its wall time before and after and their ratio, then the total over the
pipelines that compare like for like.

Usage: scripts/compare_reproduce_times.py --before REV (--after REV | --after-file PATH) [--markdown] PACK...
  --before REV       read plugins/PACK/RESULTS.md as committed at REV (`git show REV:plugins/PACK/RESULTS.md`)
  --after REV        the same for the "after" side
  --after-file PATH  read the "after" RESULTS.md from a file instead (a fresh one not committed yet); with several
                     packs PATH must hold `{pack}`, e.g. 'plugins/{pack}/RESULTS.md'
  --markdown         print markdown tables (default: plain aligned text)

Only runs of the same pipeline compare like for like, so each pipeline's TOML is compared between the commits its
two runs were made at: the commit of its section ("finished ... at commit C"; RESULTS.md keeps sections of earlier
runs, so this is not always the header's commit), else the header's. The TOML column reads "same" (byte-identical),
"changed" (left out of the total), "unknown" (a commit not in this history, or the TOML not at it: compared
without the check) or "only before" / "only after". Notes: "dirty" (a run in a tree with uncommitted changes: the
TOML that ran may differ from the commit's); "resumed" and "reduced" (the wall time covers only part of the
pipeline's work), "N → M jobs" (other work) and "--jobs N → M" (other parallelism), all left out of the total.
The load average at each run's start is given (2 cores: above 2, the run shared the machine). An identical TOML
still runs whatever the plugin's code does at its commit, and the machine is the header's: a section kept from an
earlier run may have run on another.
Exit code: 0; 2 for a bad argument (unknown pack or revision, RESULTS.md missing or unparseable).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# "Generated 2026-12-05 09:59 UTC at commit `5a64427` on 2 cores (AMD EPYC)." The CPU name may hold parentheses
# ("Intel(R) Xeon(R) Processor"), so it ends at the first ")." followed by a space or the end of the line.
HEADER = re.compile(r"^Generated (.+? UTC) at commit `([0-9a-f]+)`(.*?) on (\d+) cores \((.+?)\)\.(?: |$)", re.M)
# A summary row: "| [name](#name) | jobs (ok) | wall time | ...", "(reduced)" after the link for a reduced run.
ROW = re.compile(r"^\| \[([^\]]+)\]\(#[^)]*\)( \(reduced\))? \| (\d+) \(\d+\) \| ([^|]+?) \|")
# Wall times as reproduce.jq's `duration` writes them: "0.4 s", "42 s", "2 min 34 s", "1 h 05 min".
DURATION = re.compile(r"(?:(\d+) h)? ?(?:(\d+) min)? ?(?:(\d+(?:\.\d+)?) s)?")


def fail(message):
    print(f"compare_reproduce_times: {message}", file=sys.stderr)
    sys.exit(2)


def git(*args):
    """git's stdout as text, or None where it fails (a missing object is an answer here, not an error)."""
    done = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def commit_known(rev):
    return git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}") is not None


def seconds(text):
    match = DURATION.fullmatch(text.strip())
    if not match or not any(match.groups()):
        return None
    h, m, s = match.groups()
    return int(h or 0) * 3600 + int(m or 0) * 60 + float(s or 0)


def duration(s):
    """Seconds in the words RESULTS.md uses, so both sides and the total read alike."""
    if s < 10:
        return f"{s:.1f} s"
    if s < 60:
        return f"{s:.0f} s"
    if s < 3600:
        return f"{int(s // 60)} min {round(s % 60)} s"
    return f"{int(s // 3600)} h {int(s % 3600 // 60):02d} min"


def parse(text, origin):
    """The header (date, commit, dirty, cores, cpu) and {pipeline: run} of one RESULTS.md."""
    header = HEADER.search(text)
    if not header:
        fail(f"{origin}: no 'Generated ... at commit ... on N cores (CPU).' line")
    date, commit, middle, cores, cpu = header.groups()
    info = dict(date=date, commit=commit, dirty="uncommitted changes" in middle, cores=cores, cpu=cpu)
    summary = text.split("\n## Summary", 1)[-1].split("\n## ", 1)[0] if "\n## Summary" in text else ""
    runs = {}
    for line in summary.splitlines():
        row = ROW.match(line)
        if row:
            wall = seconds(row.group(4))
            if wall is None:
                fail(f"{origin}: unreadable wall time '{row.group(4)}' of {row.group(1)}")
            runs[row.group(1)] = dict(wall=wall, reduced=bool(row.group(2)), count=row.group(3), resumed=False,
                                      commit=commit, dirty=info["dirty"], toml=None, load="?", jobs=None)
    if not runs:
        fail(f"{origin}: no pipeline rows in its ## Summary table")
    read_sections(text, runs)
    return info, runs


def read_sections(text, runs):
    """Each pipeline's own section names the TOML it ran and the commit it ran at, which is the header's only
    when every section was rewritten by the same `make reproduce` (--pipeline and --keep-finished keep others)."""
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        name, _, body = section.partition("\n")
        run = runs.get(name.strip())
        line = next((l for l in body.splitlines() if l.startswith("`featurelab run ")), None)
        if run is None or line is None:
            continue
        toml = re.match(r"`featurelab run (\S+\.toml)", line)
        run["toml"] = toml.group(1) if toml else None
        run["resumed"] = "resumed after an interruption" in line
        jobs = re.search(r"`--jobs (\d+)`", line)
        run["jobs"] = jobs.group(1) if jobs else None
        # On a shared 2-core machine the load at the start says more about a wall time than anything else here.
        average = re.search(r"load average ([0-9.]+)", line)
        run["load"] = average.group(1) if average else "?"
        at = re.search(r"finished .*? at commit `([0-9a-f]+)`(.*)", line)
        if at:
            run["commit"], run["dirty"] = at.group(1), "uncommitted changes" in at.group(2)


def toml_status(path, before, after):
    """same / changed / unknown (and why), from the blob ids of the TOML at the two commits (same id: same bytes)."""
    missing = [c for c in (before, after) if not commit_known(c)]
    if missing:
        return f"unknown (no commit {missing[0]})"
    blobs = {c: git("rev-parse", "--verify", "--quiet", f"{c}:{path}") for c in (before, after)}
    absent = [c for c, blob in blobs.items() if blob is None]
    if absent:  # typically a pipeline first run from an uncommitted TOML
        return f"unknown (not at {absent[0]})"
    return "same" if blobs[before] == blobs[after] else "changed"


def load(pack, rev, path):
    """One side's RESULTS.md, from a commit or a file, parsed."""
    if path is not None:
        if not os.path.isfile(path):
            fail(f"no file {path}")
        with open(path, encoding="utf-8") as f:
            return parse(f.read(), path)
    text = git("show", f"{rev}:plugins/{pack}/RESULTS.md")
    if text is None:
        fail(f"no plugins/{pack}/RESULTS.md at {rev}")
    return parse(text, f"{rev}:plugins/{pack}/RESULTS.md")


def describe(label, rev, info):
    dirty = " (with uncommitted changes)" if info["dirty"] else ""
    known = "" if commit_known(info["commit"]) else f"; {info['commit']} is not in this history"
    return (f"{label}: {rev}: generated {info['date']} at commit {info['commit']}{dirty}"
            f" on {info['cores']} cores ({info['cpu']}){known}")


def compare(pack, before_runs, after_runs):
    """The table's rows, and the totals (before, after, count) over the pipelines that compare like for like."""
    rows, total_before, total_after, counted = [], 0.0, 0.0, 0
    for name in sorted(set(before_runs) | set(after_runs)):
        b, a = before_runs.get(name), after_runs.get(name)
        if b is None or a is None:
            side = "only before" if a is None else "only after"
            wall = duration((b or a)["wall"])
            rows.append([name, wall if b else "—", wall if a else "—", "—", side, "", "", ""])
            continue
        path = b["toml"] or a["toml"] or f"plugins/{pack}/pipelines/{name}.toml"
        status = toml_status(path, b["commit"], a["commit"])
        jobs, count = f"--jobs {b['jobs']} → {a['jobs']}", f"{b['count']} → {a['count']} jobs"
        notes = [n for n, on in (("dirty", b["dirty"] or a["dirty"]), ("resumed", b["resumed"] or a["resumed"]),
                                 ("reduced", b["reduced"] or a["reduced"]), (jobs, b["jobs"] != a["jobs"]),
                                 (count, b["count"] != a["count"])) if on]
        ratio = f"{a['wall'] / b['wall']:.2f}" if b["wall"] > 0 else "—"
        rows.append([name, duration(b["wall"]), duration(a["wall"]), ratio, status,
                     f"{b['commit']} → {a['commit']}", f"{b['load']} → {a['load']}", ", ".join(notes)])
        # Changed TOML, resumed and reduced runs and another number of jobs (a TOML that ran uncommitted can change
        # unseen) time different work on the two sides; on 2 cores another --jobs times the same work under other
        # parallelism: none of them in the total.
        if status != "changed" and not set(notes) & {"resumed", "reduced", jobs, count}:
            total_before, total_after, counted = total_before + b["wall"], total_after + a["wall"], counted + 1
    return rows, total_before, total_after, counted


def render(headers, rows, markdown):
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(r[i]) for r in [headers] + rows) for i in range(len(headers))]

    def fmt(row):
        return "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
    return "\n".join([fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows])


def report(pack, args):
    after_path = args.after_file.replace("{pack}", pack) if args.after_file else None
    before_info, before_runs = load(pack, args.before, None)
    after_info, after_runs = load(pack, args.after, after_path)
    rows, total_before, total_after, counted = compare(pack, before_runs, after_runs)
    ratio = f"{total_after / total_before:.2f}" if total_before > 0 else "—"
    totals = [duration(total_before), duration(total_after)] if counted else ["—", "—"]
    label = f"**total** ({counted} like for like)" if args.markdown else f"total ({counted} like for like)"
    rows.append([label, *totals, ratio, "", "", "", ""])
    lines = [f"## {pack}" if args.markdown else f"{pack}", "",
             describe("before", args.before, before_info) + ("  " if args.markdown else ""),
             describe("after", after_path or args.after, after_info)]
    if before_info["cpu"] != after_info["cpu"]:
        lines.append(f"\nThe two sides ran on different machines ({before_info['cpu']} / {after_info['cpu']}):"
                     " the ratios mix the machines' speeds with the code's.")
    headers = ["pipeline", "before", "after", "after/before", "TOML", "ran at", "load at start", "notes"]
    return "\n".join(lines + ["", render(headers, rows, args.markdown), ""])


def main():
    usage = "%(prog)s --before REV (--after REV | --after-file PATH) [--markdown] PACK..."
    parser = argparse.ArgumentParser(prog="compare_reproduce_times", usage=usage, add_help=False)
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--before")
    parser.add_argument("--after")
    parser.add_argument("--after-file")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("packs", nargs="*", metavar="PACK")
    args = parser.parse_args()
    if args.help:
        print(__doc__.strip())
        return
    if not args.before or not args.packs or (args.after is None) == (args.after_file is None):
        fail("needs --before REV, one of --after REV or --after-file PATH, and a PACK (--help)")
    if args.after_file and len(args.packs) > 1 and "{pack}" not in args.after_file:
        fail("--after-file with several packs must hold {pack}")
    for rev in filter(None, (args.before, args.after)):
        if not commit_known(rev):
            fail(f"unknown revision {rev}")
    for pack in args.packs:
        if not os.path.isdir(os.path.join(ROOT, "plugins", pack)):
            fail(f"no pack '{pack}' under plugins/")
    # Everything is read before anything is printed, so a bad pack late in the list prints nothing but the error.
    print("\n".join(report(pack, args) for pack in args.packs), end="")


if __name__ == "__main__":
    main()
