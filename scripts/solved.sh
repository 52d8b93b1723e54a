#!/usr/bin/env bash
# Solves the start position of every size NAME:NxS of every game within a
# time budget per instance, growing from 1x1: for each row length n the seed
# count s grows until a solve runs out of time (larger s are then skipped),
# and n grows until even s = 1 runs out of time.
#
#   scripts/solved.sh [--budget SECONDS] [--threads N] [--max-n N] [--max-s S] [GAME...]
#
# Writes data/solved.csv (game, n, s, value, best first move, nodes,
# seconds, solver version; "timeout" in value for instances past the
# budget) and data/solved.md (one table per game, rows n, columns s, like
# Irving, Donkers and Uiterwijk's Kalah table). The Kalah cells are checked
# against the published values by the tests (tests/it/solved.rs), and the
# small cells of every game against an exhaustive retrograde analysis.
# Needs jq.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=60
threads=2
max_n=8
max_s=10
games=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --max-n) max_n=$2; shift 2 ;;
    --max-s) max_s=$2; shift 2 ;;
    *) games+=("$1"); shift ;;
  esac
done
[[ ${#games[@]} -eq 0 ]] && games=(kalah awari akon djenon-abe anywoli dakon)
cargo build --release --quiet
bin=target/release/mancala
version=$("$bin" --version | awk '{print $2}')
csv=data/solved.csv
md=data/solved.md
# Rows of the games not re-run now are kept.
kept=$(mktemp)
trap 'rm -f "$kept"' EXIT
if [[ -f $csv ]]; then
  pattern=$(printf '%s,|' "${games[@]}")
  tail -n +2 "$csv" | grep -Ev "^(${pattern%|})" >"$kept" || true
fi
echo "game,n,s,value,best,nodes,seconds,version" >"$csv"
cat "$kept" >>"$csv"
for game in "${games[@]}"; do
  for n in $(seq 1 "$max_n"); do
    solved_any=0
    for s in $(seq 1 "$max_s"); do
      if out=$(timeout "$budget" "$bin" solve --game "$game:${n}x$s" --threads "$threads" --json --quiet 2>/dev/null); then
        read -r value best nodes secs < <(jq -r '[.value, .best, .nodes, .seconds] | map(tostring) | join(" ")' <<<"$out")
        printf '%s,%d,%d,%s,%s,%s,%.3f,%s\n' "$game" "$n" "$s" "$value" "$best" "$nodes" "$secs" "$version" >>"$csv"
        solved_any=1
      else
        # Past the budget (or the solver's region limit): larger s are harder.
        printf '%s,%d,%d,timeout,,,%s,%s\n' "$game" "$n" "$s" "$budget" "$version" >>"$csv"
        break
      fi
    done
    [[ $solved_any -eq 0 ]] && break
  done
done
{
  echo "# Solved start positions of every game"
  echo
  echo "Made by \`scripts/solved.sh\` (mancala $version; see \`solved.csv\` for each cell's time): the"
  echo "game value of the start position of \`NAME:NxS\` for the first player (South),"
  echo "with a best first move, under the rules of the project's rules reading."
  echo "A positive value is a first-player win by that many seeds; \`t\` means the"
  echo "solve did not finish within the budget of its run. Raw figures (nodes, seconds):"
  echo "\`solved.csv\`."
  for game in kalah awari akon djenon-abe anywoli dakon; do
    grep -q "^$game," "$csv" || continue
    echo
    echo "## $game"
    echo
    header="| n \\\\ s |"
    rule="|---|"
    cols=$(awk -F, -v g="$game" '$1 == g && $3 > m { m = $3 } END { print m }' "$csv")
    rows=$(awk -F, -v g="$game" '$1 == g && $2 > m { m = $2 } END { print m }' "$csv")
    for s in $(seq 1 "$cols"); do header+=" $s |"; rule+="---|"; done
    echo "$header"
    echo "$rule"
    for n in $(seq 1 "$rows"); do
      grep -q "^$game,$n," "$csv" || continue
      row="| $n |"
      for s in $(seq 1 "$cols"); do
        cell=$(awk -F, -v g="$game" -v n="$n" -v s="$s" '$1 == g && $2 == n && $3 == s { if ($4 == "timeout") print "t"; else print $4 " (" $5 ")" }' "$csv")
        row+=" ${cell:-} |"
      done
      echo "$row"
    done
  done
  # Results past the budget of a run, kept by hand.
  if [[ -f data/solved-beyond.md ]]; then
    echo
    cat data/solved-beyond.md
  fi
} >"$md"
echo "wrote $csv and $md"
