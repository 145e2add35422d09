#!/bin/bash
# Issue 27 section 3: the margins tuned by margins-spsa.sh against the untuned ones, both with
# generation 1 (7fbeb95, Eval=nnue), SPRT [0, 5] at 10,000 nodes, UHO sample, seed 28, capped
# at 6,000 games. The tuned values are the SPSA's own printout (margins-spsa.sh, which returns
# at once when the tune is finished and goes on with it when not). Resumes from its PGN.
cd /work/campaign
./margins-spsa.sh
T=spsa/nnue-margins.tuned
[ -s "$T" ] || exit 0
OPTS=$(sed 's/^\([^,]*\), */option.\1=/' "$T" | paste -sd,)
echo "tuned: $OPTS" >> logs/margins-sprt.log
B=/work/campaign/bin/augur-7fbeb95
nice -n 10 bin/augur-lab-7fbeb95 match \
  --engine name=margins-tuned,cmd=$B,option.Eval=nnue,$OPTS \
  --engine name=margins-default,cmd=$B,option.Eval=nnue \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 28 \
  --tc nodes=10000 --concurrency 1 --games 6000 --sprt 0,5 \
  --pgn sprt/margins-nnue-7fbeb95.pgn >> logs/margins-sprt.log 2>&1
