#!/bin/bash
# Issue 27 section 3: the margins tuned by margins-spsa.sh against the untuned ones, both with
# generation 1 (7fbeb95, Eval=nnue), SPRT [0, 5] at 10,000 nodes, UHO sample, seed 28, capped
# at 6,000 games. Runs only once the SPSA has its 2,000 iterations; the tuned values are the
# last row of its history.csv, rounded as the engine rounds a spin option. Resumes from its PGN.
cd /work/campaign
H=spsa/nnue-margins/history.csv
[ -f "$H" ] || exit 0
OPTS=$(python3 - "$H" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows or int(rows[-1]["iteration"]) < 2000:
    sys.exit(0)
last = rows[-1]
print(",".join(f"option.{k}={round(float(v))}" for k, v in last.items()
               if k not in ("iteration", "wins", "draws", "losses")))
PY
)
[ -n "$OPTS" ] || exit 0
echo "tuned: $OPTS" >> logs/margins-sprt.log
B=/work/campaign/bin/augur-7fbeb95
nice -n 10 bin/augur-lab-7fbeb95 match \
  --engine name=margins-tuned,cmd=$B,option.Eval=nnue,$OPTS \
  --engine name=margins-default,cmd=$B,option.Eval=nnue \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 28 \
  --tc nodes=10000 --concurrency 1 --games 6000 --sprt 0,5 \
  --pgn sprt/margins-nnue-7fbeb95.pgn >> logs/margins-sprt.log 2>&1
