#!/bin/bash
# The fine-tune's screens (ninth session): one more variant (generation 2's own K with the
# small lr), then the two lr 0.00005 networks against generation 2, 400 games each at 10k
# nodes (UHO sample, seed 87, the same openings for both). The data and settings: ft-files.sh.
. /work/campaign/ft-files.sh
ft_train lr5e-5-wd0.01-k145 --lr 0.00005 --weight-decay 0.01 --epochs 4 --k 145.2 --validation-k 145.2
B=$C/bin/augur-0d278eb-pgo3
for v in lr5e-5-wd0.01 lr5e-5-wd0.01-k145; do
  nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
    --engine name=$v,cmd=$B,option.EvalFile=$PWD/$v/augur.nnue \
    --engine name=gen2,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 87 \
    --tc nodes=10000 --concurrency 1 --games 400 --pgn $PWD/$v-vs-gen2.pgn > $v-vs-gen2.txt 2>&1
done
