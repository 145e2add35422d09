#!/bin/bash
# gen2ft2 variants on the 'all' data (gen2ft2.sh): a larger lr, more epochs
set -e
C=/work/campaign; NET=$C/nets/gen2ft1-1p77m-h256.nnue; cd $C/nnue/gen2ft2
D=$C/datagen/device; V=$C/datagen/converted
FILES="$V/scaling-e3809f7-mpc-n10000.bin $V/timed-gen2-3d5cd0d.bin
  $V/scaling-e3809f7-calibration-n40000.bin $V/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $C/nnue/ft2/snap-2722.bin $C/nnue/ft2/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin
  $PWD/rest-2722.bin $PWD/rest-2723.bin $V/sprt-3d5cd0d-margins-gen2-n10000.bin
  $V/screen-0d278eb-ft-lr5e-5-wd0.01-vs-gen2.bin $V/screen-0d278eb-ft-lr5e-5-wd0.01-k145-vs-gen2.bin
  $V/sprt-0d278eb-gen2ft1-vs-gen2-n10000.bin $PWD/snap-2724.bin $PWD/snap-2725.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2801.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2802.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2803.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2804.bin"
VAL=0.01361102856274344
run() { local name=$1; shift
  [ -f $name/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --init $NET \
    --validation $VAL --validation-k 132.2 --hidden 256 --mirror --keep-best --schedule cosine \
    --batch 4096 --threads 1 --quiet --weight-decay 0.01 --out $name "$@" > $name.log 2>&1; }
run all-lr1e-4-e6 --lr 0.0001 --epochs 6
run all-lr5e-5-e8 --lr 0.00005 --epochs 8
