#!/usr/bin/env bash
# Solves a list of variants (start positions) and prints a Markdown table:
# value, best first move, nodes (all, and interior: those whose moves were
# generated, the nodes Irving et al.'s solver counts), seconds, and the
# published value where one exists (tests/data/kalah_values.csv).
#
#   scripts/solve-table.sh [--threads N] [--timeout SECONDS] [--db DIR] [--extend-mb MB] [VARIANT...]
#
# --extend-mb MB is passed to `solve` (0: the search alone, no levels
# built in memory). Where levels were built in memory, the last column
# says which, and the nodes and interior nodes include those of the
# search before the build ("a+b": before the build, after it), the
# seconds everything. Needs jq.
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
extend=()
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --extend-mb) extend=(--extend-mb "$2"); shift 2 ;;
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
echo "| variant | value | best | nodes | interior | seconds | published | built in memory |"
echo "|---|---|---|---|---|---|---|---|"
for v in "${args[@]}"; do
  dbargs=()
  if [[ -n "$db" ]]; then
    pits=${v#*:}
    pits=${pits%x*}
    dbargs=(--db "${db//\{n\}/$pits}")
  fi
  if out=$(timeout "$limit" "$bin" solve --game "$v" --threads "$threads" --json --quiet "${dbargs[@]}" "${extend[@]}"); then
    read -r value best nodes interior secs built < <(jq -r '
      .built_in_memory as $b
      | (($b != null) and ($b.nodes_before > 0)) as $before
      | [.value, .best,
         (if $before then "\($b.nodes_before)+\(.nodes)" else .nodes end),
         (if $before then "\($b.interior_before)+\(.interior_nodes)" else .interior_nodes end),
         .seconds,
         (if $b == null then "-" else
            "\($b.from)..\($b.top)_(\($b.seconds * 10 | round / 10)_s;_search_before_\($b.seconds_before * 10 | round / 10)_s)"
          end)]
      | map(tostring) | join(" ")' <<<"$out")
    pub=${published[$v]:--}
    mark=""
    [[ "$pub" != "-" && "$pub" != "$value" ]] && mark=" **MISMATCH**"
    printf '| %s | %s | %s | %s | %s | %.2f | %s%s | %s |\n' "$v" "$value" "$best" "$nodes" "$interior" "$secs" "$pub" "$mark" "${built//_/ }"
  else
    printf '| %s | timeout after %s s | | | | | %s | |\n' "$v" "$limit" "${published[$v]:--}"
  fi
done
