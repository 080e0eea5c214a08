# Helpers for the end-to-end scripts: run a command, check its exit code and output.
set -uo pipefail
failures=0
checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# expect CODE PATTERN -- command...: the command exits with CODE and its output matches PATTERN.
expect() {
  local code=$1 pattern=$2
  shift 3
  local out status
  out=$("$@" 2>&1)
  status=$?
  checks=$((checks + 1))
  if [[ $status -ne $code ]]; then
    echo "FAIL: '$*' exited $status, expected $code"; echo "$out" | tail -20; failures=$((failures + 1)); return
  fi
  if [[ -n $pattern ]] && ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | tail -20; failures=$((failures + 1)); return
  fi
}

check() {  # check DESCRIPTION command...: the command succeeds
  local what=$1
  shift
  checks=$((checks + 1))
  if ! "$@"; then echo "FAIL: $what"; failures=$((failures + 1)); fi
}

# Run directories under test. began DIR N: N jobs of the run in DIR have begun their steps (30 s at most).
began() {
  for _ in $(seq 1 600); do
    [[ $(grep -ls ' step [0-9]*/' "$1"/jobs/*/log.txt 2>/dev/null | wc -l) -ge $2 ]] && return 0
    sleep 0.05
  done
  return 1
}
# none_left DIR [SESSION]: no process names the run's directory (nor is in the session), within 2 s.
none_left() {
  for _ in $(seq 1 40); do
    ! pgrep -f -- "$1" >/dev/null && { [[ -z ${2:-} ]] || ! pgrep -s "$2" >/dev/null; } && return 0
    sleep 0.05
  done
  pgrep -a -f -- "$1"
  [[ -n ${2:-} ]] && pgrep -a -s "$2"
  return 1
}

finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [[ $failures -eq 0 ]]
}
