#!/usr/bin/env bash
# Counts Dakon's winning openings (South's winning first turns) of
# dakon:NxN for N from 3 up, under both criteria (majority and --strong),
# each within a time budget, and writes data/openings.csv and
# data/openings.md with the counts, shortest and longest winning openings,
# and run times. An instance past the budget is reported as not done.
#
#   scripts/openings.sh [--budget SECONDS] [--threads N] [--memory MB] [FROM [TO]]
#
# (defaults: 600 s, 2 threads, 8192 MiB, N from 3 to 9)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=600
threads=2
memory=8192
sizes=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
from=${sizes[0]:-3}
to=${sizes[1]:-9}
cargo build --release --quiet
bin=target/release/mancala
version=$("$bin" --version | awk '{print $2}')
csv=data/openings.csv
echo "game,criterion,winning,first_turns,shortest,longest,seconds,version" >"$csv"
for n in $(seq "$from" "$to"); do
  # Both criteria in one walk (--both): the strong summary, then the
  # majority's.
  start=$(date +%s.%N)
  if out=$(timeout "$budget" "$bin" openings --game "dakon:${n}x$n" --both --count \
    --threads "$threads" --memory "$memory" --quiet); then
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    for criterion in majority strong; do
      if [[ $criterion == strong ]]; then line=$(grep '^# strong: ' <<<"$out"); else line=$(tail -1 <<<"$out"); fi
      # "# [strong: ]winning W of T first turns, shortest A, longest B"
      read -r w t a b < <(sed -E 's/# (strong: )?winning ([0-9]+) of ([0-9]+) first turns, shortest ([0-9-]+), longest ([0-9-]+)/\2 \3 \4 \5/' <<<"$line")
      echo "dakon:${n}x$n,$criterion,$w,$t,$a,$b,$secs,$version" >>"$csv"
    done
  else
    for criterion in majority strong; do
      echo "dakon:${n}x$n,$criterion,not done,,,,>$budget,$version" >>"$csv"
    done
  fi
done
# Notes written by hand below the marker line of the old report are kept.
notes=""
if [[ -f data/openings.md ]] && grep -q '^<!-- notes -->$' data/openings.md; then
  notes=$(sed -n '/^<!-- notes -->$/,$p' data/openings.md)
fi
{
  echo "# Dakon's winning openings"
  echo
  echo "Made by \`scripts/openings.sh --budget $budget --threads $threads\` (mancala $version)."
  echo "A winning opening is South's first turn (moves joined by extra moves)"
  echo "after which South has captured more than half of the seeds (majority) or"
  echo "at least \`2ns - s\` of them (strong, the criterion of Donkers, de Voogt and"
  echo "Uiterwijk 2000, who found none for Dakon-3). *First turns* counts every"
  echo "distinct first turn, winning or not; lengths are numbers of moves."
  echo "Both criteria are counted in one walk (\`--both\`); *seconds* is that walk."
  echo
  echo "| game | criterion | winning | first turns | shortest | longest | seconds |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$csv" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
  if [[ -n "$notes" ]]; then
    echo
    echo "$notes"
  fi
} >data/openings.md
echo "wrote $csv and data/openings.md"
