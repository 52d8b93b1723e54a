#!/usr/bin/env bash
# Solves a list of variants (start positions) and prints a Markdown table:
# value, best first move, nodes (all, and interior: those whose moves were
# generated, the nodes Irving et al.'s solver counts), seconds, and the
# published value where one exists (tests/data/kalah_values.csv).
#
#   scripts/solve-table.sh [--threads N] [--timeout SECONDS] [--db DIR] [VARIANT...]
#
# --db DIR probes the endgame databases in DIR (`mancala db build`); a
# `{n}` in DIR is replaced by the variant's pits a row, since a game's
# databases serve one row length: `--db 'kdb{n}'` after
# `mancala db build --game kalah:6x4 --max-seeds 20 --dir kdb6` and so on.
#
# Without variants it solves the published Kalah cells and small variants
# of every game. A variant that runs past the timeout is reported as such.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=1
limit=600
db=""
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [[ ${#args[@]} -eq 0 ]]; then
  args=(kalah:4x1 kalah:4x2 kalah:4x3 kalah:4x4 kalah:4x5 kalah:4x6
        kalah:5x1 kalah:5x2 kalah:5x3 kalah:5x4 kalah:6x1 kalah:6x2 kalah:6x3 kalah:6x4
        awari:3x3 awari:3x4 awari:4x2 akon:3x3 akon:4x2 akon:4x3
        djenon-abe:3x3 djenon-abe:4x3 anywoli:3x3 anywoli:4x3 dakon:3x3 dakon:4x3)
fi
cargo build --release --quiet
bin=target/release/mancala
declare -A published
while IFS=, read -r game value _; do
  [[ "$game" == \#* || "$game" == game ]] && continue
  published[$game]=$value
done < tests/data/kalah_values.csv
echo "| variant | value | best | nodes | interior | seconds | published |"
echo "|---|---|---|---|---|---|---|"
for v in "${args[@]}"; do
  dbargs=()
  if [[ -n "$db" ]]; then
    pits=${v#*:}
    pits=${pits%x*}
    dbargs=(--db "${db//\{n\}/$pits}")
  fi
  if out=$(timeout "$limit" "$bin" solve --game "$v" --threads "$threads" --json --quiet "${dbargs[@]}"); then
    value=$(sed -E 's/.*"value": ?(-?[0-9]+).*/\1/' <<<"$out")
    best=$(sed -E 's/.*"best": ?"([^"]*)".*/\1/' <<<"$out")
    nodes=$(sed -E 's/.*"nodes": ?([0-9]+).*/\1/' <<<"$out")
    interior=$(sed -E 's/.*"interior_nodes": ?([0-9]+).*/\1/' <<<"$out")
    secs=$(sed -E 's/.*"seconds": ?([0-9.]+).*/\1/' <<<"$out")
    pub=${published[$v]:--}
    mark=""
    [[ "$pub" != "-" && "$pub" != "$value" ]] && mark=" **MISMATCH**"
    printf '| %s | %s | %s | %s | %s | %.2f | %s%s |\n' "$v" "$value" "$best" "$nodes" "$interior" "$secs" "$pub" "$mark"
  else
    printf '| %s | timeout after %s s | | | | | %s |\n' "$v" "$limit" "${published[$v]:--}"
  fi
done
