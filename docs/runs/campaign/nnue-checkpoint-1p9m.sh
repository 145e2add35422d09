#!/bin/bash
# checkpoint at 1.91M positions: H=64 (and 128), the 1.41M checkpoint's settings
cd /work/campaign/nnue/gen-2m
for H in 64 128; do
nice -n 19 /work/campaign/bin/augur-lab-dcc08c2 train $(cat files) --validation 0.013874702879489283 \
  --validation-k 156.8 --hidden $H --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 16 \
  --batch 4096 --threads 1 --quiet --out v-h$H > v-h$H.log 2>&1
done
B=/work/campaign/bin/augur-dcc08c2
for H in 64 128; do
nice -n 19 /work/campaign/bin/augur-lab-dcc08c2 match --engine name=gen2m-h$H,cmd=$B,option.Eval=nnue,option.EvalFile=/work/campaign/nnue/gen-2m/v-h$H/augur.nnue \
  --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --tc nodes=10000 --concurrency 1 --games 200 --seed 2 --pgn h$H-vs-hce.pgn > h$H-vs-hce.txt 2>&1
done
