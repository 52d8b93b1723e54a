#!/usr/bin/env bash
# Builds the Awari endgame databases up to K stones and checks every level
# against Lincke's published table (tests/data/lincke_awari.tsv, from
# "Exploring the Computational Limits of Large Exhaustive Search Problems",
# ETH Zurich 2002, appendix B; rows for 0 to 34 stones). Prints a Markdown
# table: boards, build seconds, passes over the level (sweeps, or the scans
# of a propagation build), how many times each board's moves and unmoves
# were generated, boards per second, and whether the value histogram
# matches the published row exactly.
#
#   scripts/awari-db.sh [--threads N] [--dir DIR] [--method auto|sweep] [K]
#                                                         (K defaults to 20)
#
# Levels already built and valid in DIR are reused (their time shows as
# "reused"); delete DIR for a timed build from scratch. Peak memory is the
# maximum resident size reported by /usr/bin/time, when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=2
method=auto
dir=data/db
max=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --method) method=$2; shift 2 ;;
    *) max=$1; shift ;;
  esac
done
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/mancala"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s.%N)
if [[ -x /usr/bin/time ]]; then
  /usr/bin/time -f "peak resident memory: %M KiB" \
    "$bin" db build --game awari --max-seeds "$max" --dir "$dir" --threads "$threads" --method "$method" 2>"$log" >/dev/null
else
  "$bin" db build --game awari --max-seeds "$max" --dir "$dir" --threads "$threads" --method "$method" 2>"$log" >/dev/null
fi
end=$(date +%s.%N)
echo "Awari databases 0 to $max stones in $dir, $threads threads, method $method: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s in all"
grep -E "^(building|peak)" "$log" || true
echo
echo "| stones | boards | seconds | passes | moves/board | unmoves/board | boards/s | Lincke (2002) |"
echo "|---|---|---|---|---|---|---|---|"
mismatches=0
for k in $(seq 0 "$max"); do
  line=$(grep -E "^level $k: " "$log")
  boards=$(sed -E 's/^level [0-9]+: ([0-9]+) boards.*/\1/' <<<"$line")
  if [[ "$line" == *reused* ]]; then
    secs=reused; sweeps=-; rate=-; moves=-; unmoves=-
  else
    secs=$(sed -E 's/.* in ([0-9.]+) s .*/\1/' <<<"$line")
    sweeps=$(sed -E 's/.* ([0-9]+) (sweeps|rounds),.*/\1/' <<<"$line")
    moves=$(sed -E 's/.*moves generated ([0-9.]+) .*/\1/' <<<"$line")
    unmoves=-
    if [[ "$line" == *unmoves* ]]; then
      unmoves=$(sed -E 's/.*unmoves ([0-9.]+) times.*/\1/' <<<"$line")
    fi
    rate=$(awk -v b="$boards" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", b / s; else print "-" }')
  fi
  published=$(awk -F'\t' -v k="$k" 'NR > 1 && $1 == k && $3 > 0 { print $2 "\t" $3 }' tests/data/lincke_awari.tsv | sort -n)
  if [[ -z "$published" ]]; then
    verdict="not published"
  elif [[ "$("$bin" db stats --game awari --seeds "$k" --dir "$dir" | sort -n)" == "$published" ]]; then
    verdict="matches"
  else
    verdict="**MISMATCH**"
    mismatches=$((mismatches + 1))
  fi
  echo "| $k | $boards | $secs | $sweeps | $moves | $unmoves | $rate | $verdict |"
done
exit $((mismatches > 0))
