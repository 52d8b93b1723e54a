#!/usr/bin/env bash
# Counts Dakon's winning openings (South's winning first turns) of
# dakon:NxN for N from FROM to TO, under both criteria (majority and
# --strong) in one walk, and writes data/openings.csv and data/openings.md
# with the counts, the shortest and longest winning openings and the run
# times.
#
#   scripts/openings.sh [--budget SECONDS] [--threads N] [--memory MB]
#                       [--jobs N] [--dir DIR] [FROM [TO]]
#
# (defaults: 600 s, 2 threads, no memo (--memory 0), 20000 jobs a count,
# checkpoints in target/openings, N from 3 to 9)
#
# Each count keeps a checkpoint in DIR (`openings --checkpoint`) and stops
# taking new jobs after the budget (`--stop-after`). A count stopped so is
# reported as not done, with the jobs done and its extrapolation; running
# the script again resumes it where it stopped, so a large board can be
# counted over several runs. The seconds reported are those of every run
# together. Rows of sizes outside FROM..TO are kept from the old CSV, and
# notes written by hand below the marker line of the old report are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=600
threads=2
memory=0
jobs=20000
dir=target/openings
sizes=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
from=${sizes[0]:-3}
to=${sizes[1]:-9}
mkdir -p "$dir"
cargo build --release --quiet
bin=target/release/mancala
version=$("$bin" --version | awk '{print $2}')
csv=data/openings.csv
header="game,criterion,status,winning,first_turns,shortest,longest,seconds,version,jobs_done,jobs,estimated_winning,estimated_first_turns,estimated_first_turns_error,estimated_seconds_left"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
# Keep the rows of the sizes not counted now (from a CSV of this layout).
if [[ -f $csv ]] && [[ $(head -1 "$csv") == "$header" ]]; then
  tail -n +2 "$csv" | awk -F, -v a="$from" -v b="$to" '{
    split($1, g, /[:x]/); if (g[2] + 0 < a || g[2] + 0 > b) print }' >>"$rows"
fi
for n in $(seq "$from" "$to"); do
  game="dakon:${n}x$n"
  ck="$dir/dakon-${n}x$n.checkpoint"
  set +e
  out=$("$bin" openings --game "$game" --both --count --threads "$threads" \
    --memory "$memory" --jobs "$jobs" --quiet --checkpoint "$ck" --stop-after "$budget")
  rc=$?
  set -e
  secs=$(sed -n 's/^seconds //p' "$ck")
  case $rc in
    0)
      for criterion in majority strong; do
        if [[ $criterion == strong ]]; then line=$(grep '^# strong: ' <<<"$out"); else line=$(tail -1 <<<"$out"); fi
        # "# [strong: ]winning W of T first turns, shortest A, longest B"
        read -r w t a b < <(sed -E 's/# (strong: )?winning ([0-9]+) of ([0-9]+) first turns, shortest ([0-9-]+), longest ([0-9-]+)/\2 \3 \4 \5/' <<<"$line")
        echo "$game,$criterion,done,$w,$t,$a,$b,$secs,$version,,,,,," >>"$rows"
      done
      ;;
    3)
      # "# partial: J of N jobs done in S s: winning W (X strong) of T first turns so far"
      # "# extrapolated: about A (standard error E) first turns, B winning (C strong); about D s to go"
      read -r j jobs < <(sed -nE 's/^# partial: ([0-9]+) of ([0-9]+) jobs.*/\1 \2/p' <<<"$out") || true
      ta=- wa=- sa=- left=- err=-
      read -r ta wa sa left err < <(sed -nE 's/^# extrapolated: about ([^ ]+) (\(standard error ([^ ]+)\) )?first turns, ([^ ]+) winning \(([^ ]+) strong\); about ([^ ]+) .*/\1 \4 \5 \6 \3/p' <<<"$out") || true
      echo "$game,majority,not done,,,,,$secs,$version,$j,$jobs,$wa,$ta,$err,$left" >>"$rows"
      echo "$game,strong,not done,,,,,$secs,$version,$j,$jobs,$sa,$ta,$err,$left" >>"$rows"
      ;;
    *)
      echo "openings.sh: $game failed (exit status $rc)" >&2
      exit 1
      ;;
  esac
done
{
  echo "$header"
  sort -t, -k1,1V -k2,2 "$rows"
} >"$csv"
notes=""
if [[ -f data/openings.md ]] && grep -q '^<!-- notes -->$' data/openings.md; then
  notes=$(sed -n '/^<!-- notes -->$/,$p' data/openings.md)
fi
{
  echo "# Dakon's winning openings"
  echo
  echo "Made by \`scripts/openings.sh\` (mancala $version, $threads threads, memo"
  echo "$memory MiB), over one or more runs: each count resumes from its checkpoint."
  echo "A winning opening is South's first turn (moves joined by extra moves)"
  echo "after which South has captured more than half of the seeds (majority) or"
  echo "at least \`2ns - s\` of them (strong, the criterion of Donkers, de Voogt and"
  echo "Uiterwijk 2000, who found none for Dakon-3). *First turns* counts every"
  echo "distinct first turn, winning or not; lengths are numbers of moves."
  echo "Both criteria are counted in one walk (\`--both\`); *seconds* is that walk,"
  echo "over every run that worked on it."
  echo
  echo "| game | criterion | winning | first turns | shortest | longest | seconds |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$csv" | awk -F, '$3 == "done" {
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $5, $6, $7, $8 }'
  if tail -n +2 "$csv" | awk -F, '$3 != "done" { found = 1 } END { exit !found }'; then
    echo
    echo "Not done within the budget: the jobs done (a random sample of all of"
    echo "them, see \`openings --jobs\`) extrapolate to these figures."
    echo
    echo "| game | criterion | jobs done | seconds so far | about this many winning | of about (standard error) | seconds to go, about |"
    echo "|---|---|---|---|---|---|---|"
    tail -n +2 "$csv" | awk -F, '$3 != "done" {
      for (i = 12; i <= 15; i++) if ($i == "") $i = "-"
      printf "| %s | %s | %s of %s | %s | %s | %s (%s) | %s |\n", $1, $2, $10, $11, $8, $12, $13, $14, $15 }'
  fi
  if [[ -n "$notes" ]]; then
    echo
    echo "$notes"
  fi
} >data/openings.md
echo "wrote $csv and data/openings.md"
