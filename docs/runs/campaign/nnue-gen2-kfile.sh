#!/bin/bash
# Generation 2, third turn (27 Nov, fourth session): the campaign's sources fit their own
# results at different K (generation 1's self-play 128-141, the HCE's 142-152, match and
# timed games 105-200), so one K gave one advantage targets up to 0.07 apart. The 16-epoch H = 128 recipe
# again with `--k-per-file` (33e573f: each file's scores times K / K_f; the held-out positions
# keep theirs, so the loss is comparable), then against generation 1 as before. The data: gen2-files.sh.
# Resumable: a finished step is skipped.
set -e
. /work/campaign/gen2-files.sh
B=$C/bin/augur-21097c0
[ -f v-h128-kfile/augur.nnue ] || nice -n 10 $C/bin/augur-lab-33e573f train $FILES --validation $VAL \
  --validation-k 156.8 --k-per-file --hidden 128 --mirror --keep-best --lr 0.004 --weight-decay 0.3 \
  --epochs 16 --batch 4096 --threads 1 --quiet --out v-h128-kfile > v-h128-kfile.log 2>&1
nice -n 10 $C/bin/augur-lab-21097c0 match \
  --engine name=gen2-v-h128-kfile,cmd=$B,option.EvalFile=$PWD/v-h128-kfile/augur.nnue \
  --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn v-h128-kfile-vs-gen1.pgn > v-h128-kfile-vs-gen1.txt 2>&1
