#!/usr/bin/env bash
# What a user can evaluate a few seeds above the databases, in the games
# whose positions can repeat: for each game, builds (or reuses) its
# databases to LEVELS seeds on its full board, then solves COUNT random
# positions with LEVELS + d seeds on the board for each d of ABOVE, each
# with a time limit, and prints a Markdown table: how many were solved
# within 10 s, within 60 s (when the limit is longer) and within the
# limit, the median and the largest seconds of those solved, and the
# largest peak resident memory. Each position's line (game, position,
# seconds or "-", peak MB) goes to stderr.
#
#   scripts/cycles.sh [--dir DIR] [--levels K] [--count N] [--timeout S]
#                     [--above "2 4 6 8"] [--threads T] [--tt-mb MB] [GAME...]
#
# Random positions: each seed is dropped into one of the 2n pits at random
# (bash's $RANDOM, seeded for reproducibility), the side to move at random,
# nothing captured; positions whose side to move has no seeds are redrawn.
# Defaults: databases to 8 seeds in data/db/cycles, 10 positions, 60 s,
# 2 threads, 2048 MB of table, every cyclic game.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=data/db/cycles
levels=8
count=10
limit=60
above="2 4 6 8"
threads=2
tt=2048
games=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --above) above=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --tt-mb) tt=$2; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) games+=("$1"); shift ;;
  esac
done
[[ ${#games[@]} -eq 0 ]] && games=(awari akon anywoli djenon-abe dakon)
cargo build --release --quiet
bin=target/release/mancala
RANDOM=2026
echo "Databases to $levels seeds; $count random positions a row; limit $limit s;" \
  "$threads threads, $tt MB of table; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)."
echo
# A column for 60 s when the limit is longer (issue 20's two thresholds).
minute=$(awk -v l="$limit" 'BEGIN { print (l > 60) }')
if [[ $minute == 1 ]]; then
  echo "| game | seeds on the board | positions | solved in 10 s | solved in 60 s | solved in $limit s | median s (solved) | max s (solved) | peak MB |"
  echo "|---|---|---|---|---|---|---|---|---|"
else
  echo "| game | seeds on the board | positions | solved in 10 s | solved in $limit s | median s (solved) | max s (solved) | peak MB |"
  echo "|---|---|---|---|---|---|---|---|"
fi
for game in "${games[@]}"; do
  db="$dir/$game"
  "$bin" db build --game "$game" --dir "$db" --max-seeds "$levels" --threads "$threads" --quiet >/dev/null
  # The row length, from the start position's notation ("S a,b,.../...").
  row=$("$bin" show --game "$game" --json | sed -E 's/.*"notation": ?"[SN] ([0-9,]+)\/.*/\1/')
  n=$(tr ',' '\n' <<<"$row" | wc -l)
  for d in $above; do
    seeds=$((levels + d))
    fast=0 within=0 solved=0 peak=0 times=()
    for ((i = 0; i < count; i++)); do
      while :; do
        pits=()
        for ((p = 0; p < 2 * n; p++)); do pits[p]=0; done
        for ((s = 0; s < seeds; s++)); do
          p=$((RANDOM % (2 * n)))
          pits[p]=$((pits[p] + 1))
        done
        side=$((RANDOM % 2))
        own=0
        for ((p = side * n; p < (side + 1) * n; p++)); do own=$((own + pits[p])); done
        [[ $own -gt 0 ]] && break
      done
      south=$(IFS=,; echo "${pits[*]:0:n}")
      north=$(IFS=,; echo "${pits[*]:n:n}")
      pos="$([[ $side -eq 0 ]] && echo S || echo N) $south/$north 0-0"
      stats=$(mktemp)
      if out=$(/usr/bin/time -f "%e %M" -o "$stats" timeout "$limit" "$bin" solve --game "$game" \
        --position "$pos" --db "$db" --threads "$threads" --tt-mb "$tt" --json --quiet 2>/dev/null); then
        read -r secs kb <"$stats"
        solved=$((solved + 1))
        times+=("$secs")
        awk -v s="$secs" 'BEGIN { exit !(s <= 10) }' && fast=$((fast + 1))
        awk -v s="$secs" 'BEGIN { exit !(s <= 60) }' && within=$((within + 1))
        ((kb / 1024 > peak)) && peak=$((kb / 1024))
        echo "$game | $pos | $secs | $((kb / 1024))" >&2
      else
        echo "$game | $pos | - | -" >&2
      fi
      rm -f "$stats"
      : "$out"
    done
    median=- slowest=-
    if [[ ${#times[@]} -gt 0 ]]; then
      median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
      slowest=$(printf '%s\n' "${times[@]}" | sort -g | tail -1)
    fi
    if [[ $minute == 1 ]]; then
      echo "| $game | $seeds | $count | $fast | $within | $solved | $median | $slowest | $peak |"
    else
      echo "| $game | $seeds | $count | $fast | $solved | $median | $slowest | $peak |"
    fi
  done
done
