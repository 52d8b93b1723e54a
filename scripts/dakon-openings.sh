#!/usr/bin/env bash
# Searches the shortest winning openings of dakon:NxN for N from FROM to TO
# under both criteria (`openings --shortest`, `--stop-after SECS` each) and
# writes data/dakon-openings.csv and data/dakon-openings.md: whether an
# opening was found, its length (proved shortest or an upper bound), one
# example, the game value it decides, the seconds, and the exact counts of
# data/openings.csv where there are some.
#
#   scripts/dakon-openings.sh [--stop-after SECS] [--both] [FROM [TO]]
#   scripts/dakon-openings.sh --strong-only [--stop-after SECS] [FROM [TO]]
#                                  (only the strong rows of FROM..TO searched
#                                  again, the other rows of the CSV kept)
#   scripts/dakon-openings.sh --md-only [--stop-after SECS]
#                                  (the report again from the CSV)
#
# (defaults: 15 s a search, N from 3 to 32; --both runs the two criteria of
# a board at the same time, one process each; each row is echoed on stderr
# with the closest score the search saw). Notes written by hand below
# the line `<!-- notes -->` of the old report are kept. Needs jq. In the CSV, the
# position after the opening (it holds commas) is the last field, quoted.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=15
sizes=()
md_only=false
both=false
strong_only=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --stop-after) secs="$2"; shift 2 ;;
    --md-only) md_only=true; shift ;;
    --both) both=true; shift ;;
    --strong-only) strong_only=true; shift ;;
    *) sizes+=("$1"); shift ;;
  esac
done
from=${sizes[0]:-3}
to=${sizes[1]:-32}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/mancala
csv=data/dakon-openings.csv
if [[ $md_only == true ]]; then
  from=1
  to=0
else
criteria=(majority strong)
if [[ $strong_only == true ]]; then
  criteria=(strong)
  # Keep every row but the strong ones of FROM..TO (searched again below).
  keep=$(awk -F, -v f="$from" -v t="$to" 'NR > 1 && !($3 == "strong" && $2 >= f && $2 <= t)' "$csv")
fi
echo "game,n,criterion,found,length,proved,score,seconds,first_seconds,known_winning,known_first_turns,known_shortest,moves,after" > "$csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((n = from; n <= to; n++)); do
  game="dakon:${n}x${n}"
  for crit in "${criteria[@]}"; do
    flag=()
    [[ $crit == strong ]] && flag=(--strong)
    "$bin" openings --game "$game" --shortest "${flag[@]}" --stop-after "$secs" --json --quiet > "$tmp/$crit" || true &
    [[ $both == true ]] || wait
  done
  wait
  for crit in "${criteria[@]}"; do
    json=$(cat "$tmp/$crit")
    known=$(awk -F, -v g="$game" -v c="$crit" '$1 == g && $2 == c && $3 == "done" {print $4 "," $5 "," $6}' data/openings.csv)
    [[ -z $known ]] && known=",,"
    jq -r --arg n "$n" --arg known "$known" '[.game, $n, .criterion,
        (if .shortest == null then "no" else "yes" end),
        (.shortest // "-"), .proved, (.score // "-"), (.seconds * 10 | round / 10),
        (if .first_seconds == null then "-" else (.first_seconds * 10 | round / 10) end), $known,
        ((.moves // []) | join(" ")), ("\"" + (.after // "") + "\"")] | join(",")' <<< "$json" >> "$csv"
    echo "$game $crit: $(tail -1 "$csv" | cut -d, -f4-9), closest $(jq .closest <<< "$json")" >&2
  done
done
if [[ $strong_only == true ]]; then
  rows=$( (tail -n +2 "$csv"; if [[ -n $keep ]]; then echo "$keep"; fi) | sort -t, -s -k2,2n -k3,3)
  { head -1 "$csv"; echo "$rows"; } > "$tmp/all"
  cp "$tmp/all" "$csv"
fi
fi
notes=""
if [[ -f data/dakon-openings.md ]]; then
  notes=$(sed -n '/^<!-- notes -->$/,$p' data/dakon-openings.md)
fi
{
  cat <<HEAD
# Dakon's shortest winning openings, dakon:3x3 to dakon:32x32

Made by \`scripts/dakon-openings.sh --stop-after $secs$([[ $both == true ]] && echo " --both" || true)$([[ $strong_only == true ]] && echo " --strong-only $from $to" || true)\` (mancala
$("$bin" --version | cut -d' ' -f2), on the 2-core development
machine; threads and load in *Timing* below): \`mancala openings --game dakon:NxN --shortest [--strong]
--stop-after $secs\` for each board and criterion. A winning opening is
South's first turn after which South has captured more than half of the
seeds (majority) or at least \`2ns - s\` (strong; Donkers, de Voogt and
Uiterwijk 2000). *Length* is the number of moves of the shortest opening
found: **proved** when no shorter first turn wins, else an upper bound.
*Value* is what the opening decides about the game value (South's final
score minus North's under perfect play): at least \`2c - 2ns\` for an
opening that captures \`c\` seeds. The exact values, from
\`data/solved.md\`: +10 for 3x3, +48 for 5x5, and every seed for 4x4
and 6x6 to 11x11 (+32, +72, +98, +128, +162, +200, +242: South's first
turn can take them all, \`src/openings/settle.rs\`). *Known* are the exact counts of
\`data/openings.md\` (every first turn enumerated): winning openings and
their shortest length. *First* is the seconds until the search found
its first winning opening (the search then goes on shortening it until
the time is up or the length is proved). The example openings are in
[dakon-openings.csv](dakon-openings.csv); \`tests/it/dakon_openings.rs\`
replays every one with the engine and checks its criterion.

| game | criterion | found | length | score | value at least | first | seconds | known winning | known shortest |
|---|---|---|---|---|---|---|---|---|---|
HEAD
  tail -n +2 "$csv" | while IFS=, read -r g n c found len proved score s first kw kt ks rest; do
    total=$((2 * n * n))
    if [[ $found == yes ]]; then
      [[ $proved == true ]] && len="$len (proved)" || len="≤ $len"
      value="+$((2 * score - total))"
    else
      [[ $proved == true ]] && len="none (proved)" || len="none found"
      value="-"
      score="-"
    fi
    echo "| $g | $c | $found | $len | $score | $value | $first | $s | ${kw:--} | ${ks:--} |"
  done
  if [[ -n $notes ]]; then
    echo
    echo "$notes"
  fi
} > data/dakon-openings.md
