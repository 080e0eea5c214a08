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

finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [[ $failures -eq 0 ]]
}
