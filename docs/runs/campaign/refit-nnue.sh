#!/bin/bash
# Issue 28 section 2: the shipped ProbCut-family model refitted on the engine as it now plays,
# the network as its default evaluation (the fit of 26 Nov was on 88857b3's HCE). The same
# positions, depth and fit as that one: 6,000 positions of games-sample.epd, every depth 1..10,
# pairs (3,5) (2,6) (3,7) (4,8) (3,9) (4,10). Both steps resume / return at once when done.
cd /work/campaign
L=bin/augur-lab-$1
[ -x "$L" ] || { echo "no $L"; exit 1; }
nice -n 10 $L collect --epd /work/shared/data/positions/games-sample.epd --positions 6000 --depth 10 \
  --threads 1 --out probcut/games-d10-$1-nnue.csv >> logs/collect-$1-nnue.log 2>&1 &&
nice -n 10 $L fit probcut/games-d10-$1-nnue.csv --min -300 --max 300 \
  --file-pairs 3:5,2:6,3:7,4:8,3:9,4:10 --min-n 100 --plot-pair 4:8 \
  --out-dir probcut/fit-d10-$1-nnue > probcut/fit-d10-$1-nnue.txt 2>&1
