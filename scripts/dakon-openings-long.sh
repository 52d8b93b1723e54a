#!/usr/bin/env bash
# Strong openings of the boards the 60-second table misses, with more time:
# `mancala openings --game dakon:NxN --shortest --strong --stop-after SECS`
# on every core, for each N given, one board at a time. Each run replaces
# its board's row of data/dakon-openings-long.csv: whether an opening was
# found, its length (an upper bound: not proved), its score, the seconds
# to the first one and in all, the closest score seen, the moves and the
# position after them (quoted, last). tests/it/dakon_openings.rs replays
# every opening in the file.
#
#   scripts/dakon-openings-long.sh SECS N...
#
# Needs jq.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 2 ]]; then
  echo "usage: $0 SECS N..." >&2
  exit 2
fi
secs=$1
shift
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/mancala
csv=data/dakon-openings-long.csv
header="game,n,criterion,threads,stop_after,found,length,score,first_seconds,seconds,closest,moves,after"
[[ -f $csv ]] || echo "$header" >"$csv"
threads=$(nproc)
for n in "$@"; do
  game="dakon:${n}x${n}"
  status=0
  out=$("$bin" openings --game "$game" --shortest --strong --stop-after "$secs" \
    --threads "$threads" --json --quiet) || status=$?
  # Status 3: stopped before the length was proved, the usual case here.
  if [[ $status -ne 0 && $status -ne 3 ]]; then
    echo "$game: openings failed with status $status" >&2
    exit 1
  fi
  row=$(jq -r --arg game "$game" --argjson n "$n" --argjson t "$threads" --arg s "$secs" '
    [$game, $n, "strong", $t, $s,
     (if .moves then "yes" else "no" end),
     (if .moves then (.moves | length) else "-" end),
     (.score // "-"),
     (if .first_seconds then (.first_seconds * 10 | round / 10) else "-" end),
     (.seconds * 10 | round / 10), .closest,
     ((.moves // []) | join(" ")),
     ("\"" + (.after // "") + "\"")]
    | map(tostring) | join(",")' <<<"$out")
  grep -v "^$game," "$csv" >"$csv.tmp" || true
  echo "$row" >>"$csv.tmp"
  # Written whole, then renamed: an interrupted run leaves the old file.
  { head -1 "$csv.tmp"; tail -n +2 "$csv.tmp" | sort -t, -k2,2n; } >"$csv.new"
  mv "$csv.new" "$csv"
  rm "$csv.tmp"
  echo "$row" | cut -c1-120 >&2
done
