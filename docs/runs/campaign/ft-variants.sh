#!/bin/bash
# fine-tune variants: lr, weight decay (decoupled: lr*wd a step), K
C=/work/campaign; NET=$C/nets/gen2-6p99m-h256.nnue
FILES="$C/datagen/converted/scaling-e3809f7-mpc-n10000.bin $C/datagen/converted/timed-gen2-3d5cd0d.bin
  $C/datagen/converted/scaling-e3809f7-calibration-n40000.bin $C/datagen/converted/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $PWD/snap-2722.bin $PWD/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin"
VAL=$(awk '{print $4}' totals.txt)
run() { name=$1; shift
  [ -f $name/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --init $NET \
    --validation $VAL --hidden 256 --mirror --keep-best --schedule cosine --batch 4096 --threads 1 \
    --quiet --out $name "$@" > $name.log 2>&1; }
run lr2e-4-wd0.01 --lr 0.0002 --weight-decay 0.01 --epochs 4
run lr5e-5-wd0.01 --lr 0.00005 --weight-decay 0.01 --epochs 4
run lr2e-4-wd0.01-k145 --lr 0.0002 --weight-decay 0.01 --epochs 4 --k 145.2 --validation-k 145.2
