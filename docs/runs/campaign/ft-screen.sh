#!/bin/bash
# ninth session: one more variant (gen2's own K with the small lr), then two screens of 400
# games against generation 2 at 10k nodes (UHO sample, seed 87, the same openings for both)
C=/work/campaign; NET=$C/nets/gen2-6p99m-h256.nnue
FILES="$C/datagen/converted/scaling-e3809f7-mpc-n10000.bin $C/datagen/converted/timed-gen2-3d5cd0d.bin
  $C/datagen/converted/scaling-e3809f7-calibration-n40000.bin $C/datagen/converted/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $PWD/snap-2722.bin $PWD/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin"
VAL=$(awk '{print $4}' totals.txt)
[ -f lr5e-5-wd0.01-k145/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --init $NET \
    --validation $VAL --hidden 256 --mirror --keep-best --schedule cosine --batch 4096 --threads 1 \
    --quiet --out lr5e-5-wd0.01-k145 --lr 0.00005 --weight-decay 0.01 --epochs 4 --k 145.2 \
    --validation-k 145.2 > lr5e-5-wd0.01-k145.log 2>&1
B=$C/bin/augur-0d278eb-pgo3
for v in lr5e-5-wd0.01 lr5e-5-wd0.01-k145; do
  nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
    --engine name=$v,cmd=$B,option.EvalFile=$PWD/$v/augur.nnue \
    --engine name=gen2,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 87 \
    --tc nodes=10000 --concurrency 1 --games 400 --pgn $PWD/$v-vs-gen2.pgn > $v-vs-gen2.txt 2>&1
done
