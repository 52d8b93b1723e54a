#!/usr/bin/env bash
# `mancala db build` on several MPI ranks, on this machine: builds a game's
# levels 0 to K in one process, then with `mpirun -n N` for each N given,
# checks that every level file is byte-identical to the single process's,
# and prints each build's log (seconds a level, and the megabytes the ranks
# sent each other).
#
#   scripts/mpi-demo.sh [--game G] [--base B] [--max K] [N ...]
#                      (defaults: awari, base none, K 12, N = 2 3)
#
# With --base B, levels 0 to B are built once, alone, and copied into every
# run's directory, so that the runs time levels B+1 to K only (the bench of
# docs/mpi.md: --base 15 --max 18 1 2 4). N = 1 is the plain build in one
# process (`mpirun -n 1` runs exactly that). Needs MPI (Debian:
# `openmpi-bin libopenmpi-dev libclang-dev`); as root, Open MPI must be
# told that it may run (the variables below).
set -euo pipefail
cd "$(dirname "$0")/.."
game=awari
base=
max=12
ranks=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --game) game=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    *) ranks+=("$1"); shift ;;
  esac
done
[[ ${#ranks[@]} -gt 0 ]] || ranks=(2 3)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cargo build --release --features mpi --quiet
bin="${CARGO_TARGET_DIR:-target}/release/mancala"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -n $base ]]; then
  "$bin" db build --game "$game" --max-seeds "$base" --dir "$work/base" --quiet >/dev/null
fi
run() { # DIR N: builds to K in DIR on N ranks (N = 0: alone, no mpirun)
  mkdir -p "$1"
  if [[ -n $base ]]; then cp "$work"/base/*.mdb "$1"/; fi
  if [[ $2 == 0 ]]; then
    "$bin" db build --game "$game" --max-seeds "$max" --dir "$1" 2>&1 >/dev/null
  else
    mpirun --oversubscribe -n "$2" "$bin" db build --game "$game" --max-seeds "$max" \
      --dir "$1" 2>&1 >/dev/null
  fi | grep -v 'reused$'
}

echo "== $game, levels ${base:+$((base + 1)) to }$max, one process"
start=$(date +%s.%N)
run "$work/one" 0
echo "total $(echo "$(date +%s.%N) - $start" | bc) s"
for n in "${ranks[@]}"; do
  echo "== $game, levels ${base:+$((base + 1)) to }$max, $n ranks"
  start=$(date +%s.%N)
  run "$work/r$n" "$n"
  echo "total $(echo "$(date +%s.%N) - $start" | bc) s"
  for f in "$work"/one/*.mdb; do
    cmp -s "$f" "$work/r$n/$(basename "$f")" || { echo "DIFFERS: $(basename "$f")"; exit 1; }
  done
  echo "every level file identical to the single process's"
done
