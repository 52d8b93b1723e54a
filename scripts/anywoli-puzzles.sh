#!/usr/bin/env bash
# Writes the Anywoli puzzle collection data/anywoli-puzzles/ (a Markdown
# booklet with one SVG diagram per puzzle and a solutions page) from the
# full-board (2x12) endgame databases: `mancala puzzles --collection`, the
# puzzles of each grade taken from each level asked.
#
#   scripts/anywoli-puzzles.sh [--dir DIR] [--per-grade N] [--sample N] [--threads N] LEVELS
#
# LEVELS is A..B or A,B,C (default 8..12). The databases must be built up
# to the largest level (`mancala db build --game anywoli --max-seeds B
# --dir DIR`). The directory is replaced as a whole; the counts of every
# level and the time taken go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=data/db
per=4
sample=4000
threads=2
levels=8..12
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --per-grade) per=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) levels=$1; shift ;;
  esac
done
cargo build --release --quiet
"${CARGO_TARGET_DIR:-target}/release/mancala" puzzles --game anywoli --seeds "$levels" --dir "$dir" \
  --collection data/anywoli-puzzles --per-grade "$per" --sample "$sample" --threads "$threads"
