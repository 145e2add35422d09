#!/bin/bash
# Issue 27 section 3, the first gate: the 4.03 M checkpoint's network (H = 128, +40.1 [+11.5,
# +69.3] against the HCE over 400 games at 10k nodes) in an SPRT [0, 5] against the HCE at the
# same fixed-node control, today's engine (4dce66a), another seed than the checkpoint's match.
# Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-4dce66a
NET=/work/campaign/nnue/ckpt-4m/v-h128/augur.nnue
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
nice -n 10 bin/augur-lab-4dce66a match \
  --engine name=nnue-4m-h128,cmd=$B,option.Eval=nnue,option.EvalFile=$NET \
  --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 81 \
  --tc nodes=10000 --concurrency 1 --games 20000 --sprt 0,5 $ADJ \
  --change "network evaluation (4.03 M positions, H = 128) against the HCE" --commit 4dce66a \
  --pgn sprt/nnue-gen1-4dce66a.pgn >> logs/sprt-nnue-gen1.log 2>&1
