#!/bin/bash
# Generation 2's checkpoint, second turn (27 Nov, fourth session): at 6.99 M positions the
# 16-epoch H = 128 played level with generation 1 (-4.3 [-32.6, +23.8], 400 games) while its
# held-out loss was still falling at the last epoch; so the same files trained twice as long
# (32 epochs, the same cosine from 0.004), then H = 256 at 16 as the sweep has it. The data: gen2-files.sh.
# Resumable: a finished step is skipped.
set -e
. /work/campaign/gen2-files.sh
B=$C/bin/augur-21097c0
train() { # OUT HIDDEN EPOCHS
  [ -f $1/augur.nnue ] || nice -n 10 $C/bin/augur-lab-21097c0 train $FILES --validation $VAL \
    --validation-k 156.8 --hidden $2 --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs $3 \
    --batch 4096 --threads 1 --quiet --out $1 > $1.log 2>&1
}
play() { # OUT
  nice -n 10 $C/bin/augur-lab-21097c0 match \
    --engine name=gen2-$1,cmd=$B,option.EvalFile=$PWD/$1/augur.nnue \
    --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn $1-vs-gen1.pgn > $1-vs-gen1.txt 2>&1
}
train v-h128-e32 128 32; play v-h128-e32
train v-h256 256 16; play v-h256
