#!/bin/bash
# The second fine-tune turn (from 28 Nov, tenth session): gen2ft1 (embedded in 5ec34d1) fine-tuned
# again with the recipe that passed (lr 0.00005, decoupled weight decay 0.01, 4 epochs, cosine,
# keep-best), on the new data only ('new', 2.64 M) and with gen2ft1's 1.77 M as well ('all');
# the data and the shared settings: gen2ft2-files.sh. Then 400-game screens of each against
# gen2ft1 at 10k nodes (UHO sample, seed 89). Resumable: a finished step is skipped (a screen
# resumes from its PGN).
set -e
. /work/campaign/gen2ft2-files.sh
FT="--init $NET --schedule cosine --lr 0.00005 --weight-decay 0.01 --epochs 4"
train_on new "$NEW $LAST" $FT
train_on all "$OLD $NEW $LAST" $FT
B=$C/bin/augur-0d278eb-pgo3
for v in new all; do
  nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
    --engine name=gen2ft2-$v,cmd=$B,option.EvalFile=$PWD/$v/augur.nnue \
    --engine name=gen2ft1,cmd=$B,option.EvalFile=$NET --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 89 \
    --tc nodes=10000 --concurrency 1 --games 400 --pgn $PWD/$v-vs-gen2ft1.pgn > $v-vs-gen2ft1.txt 2>&1
done
