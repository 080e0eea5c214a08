#!/usr/bin/env bash
# Saved weights: run --save-params writes each job's parameter blocks as .npy with their sha256 in summary.json,
# `featurelab eval` measures probes on them again without training (the same bits as the run's own probes), and
# a corrupt or mismatched file is refused with the reason.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml   # widths 8, 40 × seeds 0, 1; 60 steps, evaluated every 20

expect 0 "4 job\(s\): 4 ok" -- $fl run "$sweep" --out "$work/run" --save-params every:40
job0=$(ls -d "$work"/run/jobs/0000-*)
check "every:40 saves steps 0 and 40, and the last (60)" \
  test "$(ls "$job0/params" | tr '\n' ' ')" = "step000000 step000040 step000060 "
check "a file per parameter block" test -f "$job0/params/step000060/W.npy" -a -f "$job0/params/step000060/a.npy"
check "summary.json records each file's sha256" \
  bash -c "[[ \$(jq -r '.saved_params[\"step000060/W.npy\"]' '$job0/summary.json') == \$(sha256sum '$job0/params/step000060/W.npy' | cut -d' ' -f1) ]]"
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  check "NumPy reads them: W is width × D" \
    /usr/bin/python3 -c "import numpy as np, sys; W = np.load(sys.argv[1]); assert W.shape == (8, 2) and W.dtype in (np.float32, np.float64), W.shape" "$job0/params/step000060/W.npy"
else
  echo "note: no NumPy for /usr/bin/python3; np.load not checked"
fi

# The job's own probes on its last saved parameters: every probe's final value, to the bit.
expect 0 "4 job\(s\) measured, 0 could not be" -- $fl eval "$work/run"
jq -S '.final | with_entries(select(.key | startswith("train.") | not))' "$job0/summary.json" >"$work/run-final.json"
jq -S '.final' "$job0/eval/probes/summary.json" >"$work/eval-final.json"
check "eval's probe values equal the run's (train.* aside: the trainer's), bit for bit" \
  bash -c "[[ \$(jq length '$work/run-final.json') -ge 4 ]] && cmp -s '$work/run-final.json' '$work/eval-final.json'"
# Other probes, at a saved step before the end.
cat >"$work/more.toml" <<'TOML'
[[probe]]
use = "accuracy"
name = "again"
TOML
expect 0 "job 3: measured step 40" -- $fl eval "$work/run" --probes "$work/more.toml" --step 40
check "the probes file's probe measured the step-40 parameters as the run did at step 40" \
  bash -c "[[ \$(grep '\"step\":40,\"metric\":\"accuracy.test\"' '$job0/metrics.jsonl' | sed 's/.*value\"://') == \
             \$(grep '\"step\":40,\"metric\":\"again.test\"' '$job0/eval/more/metrics.jsonl' | sed 's/.*value\"://') ]]"
expect 1 "no parameters saved at step 30 \(saved: 0, 40, 60\)" -- $fl eval "$work/run" --step 30 --indices 0

# Refused: a changed file, a file of another shape, a probes file with more than probes.
cp -r "$work/run" "$work/corrupt"
bad=$(ls -d "$work"/corrupt/jobs/0000-*)
printf '\x01' | dd of="$bad/params/step000060/W.npy" bs=1 seek=200 conv=notrunc status=none
expect 1 "W.npy: its sha256 is [0-9a-f]+, not the [0-9a-f]+ the job recorded: the file was changed or corrupted since" -- \
  $fl eval "$work/corrupt" --indices 0
wide=$(ls -d "$work"/corrupt/jobs/0002-*)   # width 40
cp "$wide/params/step000060/W.npy" "$bad/params/step000060/W.npy"
jq --arg h "$(sha256sum "$bad/params/step000060/W.npy" | cut -d' ' -f1)" '.saved_params["step000060/W.npy"] = $h' \
  "$bad/summary.json" >"$work/s.json" && mv "$work/s.json" "$bad/summary.json"
expect 1 "W.npy: shape \(40, 2\), but the model's block is 8 × 2" -- $fl eval "$work/corrupt" --indices 0
jq '.saved_params["../../etc/passwd"] = "x"' "$bad/summary.json" >"$work/s.json" && mv "$work/s.json" "$bad/summary.json"
expect 1 "saved_params entry '../../etc/passwd' is not \"step<N>/<block>.npy\"" -- $fl eval "$work/corrupt" --indices 0
# The .npy header is read as NumPy reads it, a dict of exactly three keys with whole values: big-endian numbers
# under a header whose extra string merely contains "'descr': '<f4'", or a second 'shape', are refused (the file's
# hash re-recorded, as by someone who rewrote it on purpose).
rewrite_header() {  # rewrite_header DICT: job 0's W.npy, as the run saved it, under this header; its hash recorded
  python3 - "$(ls "$work"/run/jobs/0000-*/params/step000060/W.npy)" "$bad/params/step000060/W.npy" "$1" <<'PY'
import struct, sys
source, path, header = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(source, "rb").read()
length = struct.unpack("<H", data[8:10])[0]
values = data[10 + length:]
if ">f4" in header:  # the same numbers, stored big-endian
    values = b"".join(values[i:i + 4][::-1] for i in range(0, len(values), 4))
header = (header + "\n").encode()
open(path, "wb").write(data[:8] + struct.pack("<H", len(header)) + header + values)
PY
  jq --arg h "$(sha256sum "$bad/params/step000060/W.npy" | cut -d' ' -f1)" '.saved_params["step000060/W.npy"] = $h | del(.saved_params["../../etc/passwd"])' \
    "$bad/summary.json" >"$work/s.json" && mv "$work/s.json" "$bad/summary.json"
}
rewrite_header "{'descr': '>f4', 'fortran_order': False, 'shape': (8, 2), 'note': \"'descr': '<f4'\", }"
expect 1 "W.npy: .npy header: the key 'note', which a .npy header does not have" -- $fl eval "$work/corrupt" --indices 0
rewrite_header "{'descr': '<f4', 'fortran_order': False, 'shape': (40, 2), 'shape': (8, 2), }"
expect 1 "W.npy: .npy header: the key 'shape' a second time" -- $fl eval "$work/corrupt" --indices 0
rewrite_header "{'descr': '>f4', 'fortran_order': False, 'shape': (8, 2), }"
expect 1 "W.npy: holds other numbers than this build's float(32|64) \('descr': '>f4'" -- $fl eval "$work/corrupt" --indices 0
rewrite_header "{\"descr\": \"<f4\", \"shape\": (8, 2), \"fortran_order\": False}"
expect 0 "1 job\(s\) measured" -- $fl eval "$work/corrupt" --indices 0
# A parameter file that never ends or never opens, a link to /dev/zero or a named pipe: refused before a byte is
# read, naming it (a hang would be timeout's 124).
saved=$bad/params/step000060/W.npy
rm "$saved" && ln -s /dev/zero "$saved"
expect 1 "W.npy: not a regular file \(a character device\)" -- timeout 20 $fl eval "$work/corrupt" --indices 0
rm "$saved" && mkfifo "$saved"
expect 1 "W.npy: not a regular file \(a named pipe\)" -- timeout 20 $fl eval "$work/corrupt" --indices 0
# Parameters a job could not have saved: one NaN written in (and the file's hash recorded again) is refused, counted.
rm "$saved"
python3 - "$(ls "$work"/run/jobs/0000-*/params/step000060/W.npy)" "$saved" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
length = struct.unpack("<H", data[8:10])[0]
size, code = (4, "<f") if "<f4" in data[10:10 + length].decode() else (8, "<d")
data[10 + length:10 + length + size] = struct.pack(code, float("nan"))
open(sys.argv[2], "wb").write(data)
PY
jq --arg h "$(sha256sum "$saved" | cut -d' ' -f1)" '.saved_params["step000060/W.npy"] = $h' "$bad/summary.json" >"$work/s.json" &&
  mv "$work/s.json" "$bad/summary.json"
expect 1 "W.npy: 1 of its 16 values are NaN or infinite; a job saves no such parameters" -- $fl eval "$work/corrupt" --indices 0
printf '[model]\nwidth = 3\n' >"$work/notprobes.toml"
expect 2 "a probes file holds \[\[probe\]\] tables only; found 'model'" -- $fl eval "$work/run" --probes "$work/notprobes.toml"
expect 2 "'every:0': give final .* or every:N" -- $fl run "$sweep" --out "$work/bad" --save-params every:0
expect 0 "" -- $fl run "$sweep" --out "$work/unsaved" -q
expect 2 "no job saved its parameters; run it with --save-params" -- $fl eval "$work/unsaved"
# --name names jobs/X/eval/NAME: a path is refused, nothing written anywhere.
expect 2 "--name: the evaluation's name \"../escaped\" is not a name" -- $fl eval "$work/run" --name ../escaped
expect 2 "--name: the evaluation's name \"$work/absolute\" is not a name" -- $fl eval "$work/run" --name "$work/absolute"
check "and neither wrote a directory" bash -c "test ! -e '$work/run/escaped' && test ! -e '$work/absolute' && ! ls -d '$work'/run/jobs/*/escaped 2>/dev/null"

# A prepared run keeps the setting: `featurelab job` saves as `run` would.
expect 0 "prepared" -- $fl run "$sweep" --out "$work/prep" --prepare --save-params final
expect 0 "" -- $fl job "$work/prep" --indices 1
check "the job saved its last step" bash -c "ls '$work'/prep/jobs/0001-*/params/step000060/W.npy >/dev/null"

finish
