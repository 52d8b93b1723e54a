#!/usr/bin/env bash
# Mines Anywoli puzzles from the full-board (2x12) endgame databases and
# writes data/anywoli-puzzles.txt: for each level asked (seeds on the
# board), the best puzzles of each kind with their solutions, i.e. the only
# move that keeps the value, the forced line to the first capture (levels
# mined with distances), and the whole game with best play to its end, as
# `mancala analyse --line` plays it with the databases.
#
#   scripts/anywoli-puzzles.sh [--dir DIR] [--per-kind N] [--long PLIES] LEVEL...
#
# A level given as K:0 is mined without distances (`--long 0`: one pass
# over the level instead of one sweep per ply; for the 12-seed level).
# The databases must be built up to the largest level
# (`mancala db build --game anywoli --max-seeds 12 --dir DIR`).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=data/db
per=5
long=10
levels=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --per-kind) per=$2; shift 2 ;;
    --long) long=$2; shift 2 ;;
    *) levels+=("$1"); shift ;;
  esac
done
[[ ${#levels[@]} -gt 0 ]] || levels=(4 8)
cargo build --release --quiet
bin=target/release/mancala
version=$("$bin" --version | awk '{print $2}')
out=data/anywoli-puzzles.txt
tmp=$(mktemp)
{
  echo "# Anywoli puzzles, mined from the endgame databases of the full board"
  echo "# (12 pits a row) by scripts/anywoli-puzzles.sh (mancala $version)."
  echo "#"
  echo "# Each puzzle is a position with South to move and nothing captured yet"
  echo "# (the value counts only what is still on the board). Exactly one move"
  echo "# keeps its value: that move is the solution. Kinds: sacrifice (the move"
  echo "# captures nothing and North's best reply captures), long (South wins,"
  echo "# and against the best defence the first seed leaves the board only"
  echo "# after at least $long plies), unique (otherwise). Positions where North"
  echo "# has no seeds are left out."
  echo "#"
  echo "# For each: the position; the move, the value, the kind; the plies to the"
  echo "# first capture and the forced line to it (winner hurries, loser"
  echo "# delays); then the whole game with best play as analyse --line plays"
  echo "# it, and how it ends (final scores of what was on the board)."
} > "$tmp"
for spec in "${levels[@]}"; do
  k=${spec%%:*}
  l=$long
  [[ "$spec" == *:0 ]] && l=0
  start=$(date +%s.%N)
  all=$(mktemp)
  # Positions where North has no seeds (he can only pass) are left out:
  # South merely walks his seeds round.
  "$bin" puzzles --game anywoli --seeds "$k" --dir "$dir" --long "$l" --line --each --limit 1000 2> "$all.err" \
    | awk -F'\t' '{ split($1, p, "/"); split(p[2], q, " "); if (q[1] !~ /^(0,)*0$/) print }' > "$all"
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  {
    echo
    echo "## $k seeds ($(grep -oP 'level \d+: \K.*' "$all.err")), mined in $(printf %.0f "$secs") s"
  } >> "$tmp"
  for kind in sacrifice long unique; do
    { grep -P "\t$kind\t" "$all" || true; } | head -n "$per" | while IFS=$'\t' read -r pos mv value kd plies line; do
      full=$("$bin" analyse --game anywoli --position "$pos" --db "$dir" --line --quiet)
      moves=$(echo "$full" | grep -oP '^\d+\. \w+ plays \K\S+(?=:)' | tr '\n' ' ')
      pv=$(printf '%s\n%s\n' "${moves% }" "$(echo "$full" | tail -1 | sed 's/^# //')")
      {
        echo
        echo "$pos"
        echo "  solution $mv, value $value ($kd)"
        if [[ "$plies" != "-" ]]; then
          echo "  first capture after $plies plies: $line"
        fi
        echo "  best play: $(echo "$pv" | head -1)"
        echo "  $(echo "$pv" | tail -1)"
      } >> "$tmp"
    done
  done
  rm -f "$all" "$all.err"
done
mv "$tmp" "$out"
echo "wrote $out"
