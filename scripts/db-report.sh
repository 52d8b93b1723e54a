#!/usr/bin/env bash
# Prints a Markdown report of a game's endgame databases: per level the
# boards, the file size, the build time and sweeps (read from the build's
# log, the stderr of `mancala db build`, when given; boards a second is
# boards over build seconds), and the positions per
# value (`db stats`, South to move, every distribution of the seeds).
#
#   scripts/db-report.sh --game G --dir DIR [--log BUILD-STDERR...]
set -euo pipefail
cd "$(dirname "$0")/.."
game=
dir=data/db
logs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --game) game=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --log) shift; while [[ $# -gt 0 && "$1" != --* ]]; do logs+=("$1"); shift; done ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$game" ]] || { echo "--game is required" >&2; exit 2; }
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/mancala"
name=${game%%:*}
levels=$(ls "$dir" | grep -E "^$name-[0-9]+-[0-9]{3}\.mdb$" | sed -E 's/.*-([0-9]{3})\.mdb/\1/' | sort -n)
echo "| seeds | boards | file bytes | build seconds | boards/s | passes | moves generated a board |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for l in $levels; do
  k=$((10#$l))
  file=$(ls "$dir"/"$name"-*-"$l".mdb)
  boards=$("$bin" db stats --game "$game" --dir "$dir" --seeds "$k" | awk -F'\t' '{s += $2} END {print s}')
  time=-; sweeps=-; generated=-; rate=-
  if [[ ${#logs[@]} -gt 0 ]]; then
    row=$(grep -h "^level $k: .* built in" "${logs[@]}" | tail -1 || true)
    if [[ -n "$row" ]]; then
      time=$(echo "$row" | sed -E 's/.* built in ([0-9.]+) s.*/\1/')
      sweeps=$(echo "$row" | sed -E 's/.* ([0-9]+) (sweeps|rounds)( in all| \(done before the edges fit\))?[,;].*/\1/')
      generated=$(echo "$row" | sed -nE 's/.*moves generated ([0-9.]+) times.*/\1/p')
      rate=$(awk -v b="$boards" -v s="$time" 'BEGIN { if (s > 0) printf "%.0f", b / s; else print "-" }')
    fi
  fi
  echo "| $k | $boards | $(stat -c %s "$file") | $time | $rate | $sweeps | ${generated:--} |"
done
echo
echo "Positions per value (the future net gain of the side to move):"
echo
echo "| seeds | value: boards |"
echo "|---:|---|"
for l in $levels; do
  k=$((10#$l))
  row=$("$bin" db stats --game "$game" --dir "$dir" --seeds "$k" | awk -F'\t' '{printf "%s%s: %s", sep, $1, $2; sep=", "}')
  echo "| $k | $row |"
done
