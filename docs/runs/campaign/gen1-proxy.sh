#!/bin/bash
# A proxy for the 10+0.1 gate (issue 27 section 3), beside the campaign: generation 1 (the
# embedded network of 8ddf1b6) against the HCE at a deeper fixed-node control, the network's
# side given the nodes its speed buys (about 1.25x per CPU-second, `augur bench` both ways by
# user CPU time). Fixed-node games do not mind load; the real gate is timed on an idle machine.
cd /work/campaign
B=/work/campaign/bin/augur-8ddf1b6
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
nice -n 19 bin/augur-lab-8ddf1b6 match \
  --engine name=nnue-gen1,cmd=$B,option.Eval=nnue,nodes=50000 \
  --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 91 \
  --tc nodes=40000 --concurrency 1 --games 300 $ADJ \
  --pgn proxy/gen1-n50k-vs-hce-n40k.pgn >> logs/gen1-proxy.log 2>&1
