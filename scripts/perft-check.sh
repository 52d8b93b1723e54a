#!/usr/bin/env bash
# Checks every row of tests/data/perft.tsv (also the deep ones the test
# skips) against the release build of the engine: one `mancala perft` run
# per position, to its deepest tabled depth. Prints mismatches, the time per
# position and a summary; exit status 1 if any row differs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/mancala
declare -A deepest expected
order=()
while IFS=$'\t' read -r game position depth count; do
  [[ -z "$game" || "$game" == \#* ]] && continue
  key="$game"$'\t'"$position"
  [[ -z "${deepest[$key]:-}" ]] && order+=("$key")
  (( depth > ${deepest[$key]:-0} )) && deepest[$key]=$depth
  expected["$key"$'\t'"$depth"]=$count
done < tests/data/perft.tsv
bad=0; rows=0
for key in "${order[@]}"; do
  game=${key%%$'\t'*}; position=${key#*$'\t'}
  start=$(date +%s.%N)
  while IFS=$'\t' read -r depth got _; do
    want=${expected["$key"$'\t'"$depth"]:-}
    [[ -z "$want" ]] && continue
    rows=$((rows + 1))
    if [[ "$got" != "$want" ]]; then
      echo "MISMATCH $game \"$position\" depth $depth: engine $got, table $want"
      bad=$((bad + 1))
    fi
  done < <("$bin" perft --game "$game" --position "$position" --depth "${deepest[$key]}")
  printf '%-16s %-60s depth %3s  %6.2f s\n' "$game" "\"$position\"" "${deepest[$key]}" \
    "$(echo "$(date +%s.%N) - $start" | bc)"
done
echo "$rows rows checked, $bad mismatches"
[[ $bad -eq 0 ]]
