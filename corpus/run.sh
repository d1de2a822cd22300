#!/bin/sh
# Run every corpus design: `sanjuan check` on its ruleset, `sanjuan scenario --check` on each
# scenario. Prints one line per file: PASS, or FAIL with the first error line.
# Usage (from the repository root): corpus/run.sh [design folder ...]
S=${SANJUAN:-sanjuan}
dirs="$*"
[ -z "$dirs" ] && dirs=$(ls -d corpus/san-juan/*/ corpus/alhambra/*/)
for d in $dirs; do
  d=${d%/}
  out=$($S check --ruleset "$d/ruleset.toml" 2>&1)
  if [ $? -eq 0 ]; then echo "PASS $d/ruleset.toml"; else echo "FAIL $d/ruleset.toml: $(echo "$out" | grep -E "^error" | tr "\n" "|")"; fi
  for f in "$d"/scenarios/*.toml; do
    out=$($S scenario "$f" --check 2>&1)
    if [ $? -eq 0 ]; then echo "PASS $f"; else echo "FAIL $f: $(echo "$out" | grep -m1 -E 'error|check failed')"; fi
  done
done
