#!/bin/bash
# gen2ft2 written again by the bias-corrected trainer (eleventh session, 28 Nov): the run that
# became gen2ft2 (gen2ft2-variants.sh's all-lr1e-4-e6: the same data, seed and settings, so the
# same float models) with e26b647's trainer, whose epoch files have their output bias corrected
# for the rounding ([train-qcal]); its epoch-4.nnue is the embedded gen2ft2 corrected, and the
# two differ only in the output bias. In $C/nnue/gen2ft2 as q-all-lr1e-4-e6; run again as
# q2-all-lr1e-4-e6 by b188d49, whose best.ckpt is gen2ft2's float model (epoch 4), for --init.
set -e
LAB=/work/campaign/bin/augur-lab-b188d49
. /work/campaign/gen2ft2-files.sh
train_on q2-all-lr1e-4-e6 "$OLD $NEW $LAST" --init $NET --schedule cosine --weight-decay 0.01 \
  --lr 0.0001 --epochs 6
