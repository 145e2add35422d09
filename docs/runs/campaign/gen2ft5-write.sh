#!/bin/bash
# write.sh NAME ARGS...: gen2ft5's kept float model (all-lr5e-5-e4/best.ckpt) written again with
# ARGS: one epoch at lr 0 (AdamW moves nothing at lr 0), so the epoch line's validation loss is
# the file's, written ARGS' way (as gen2ft3c.sh did for gen2ft3).
set -e
. /work/campaign/gen2ft5-files.sh
LAB=${LAB:-/work/campaign/bin/augur-lab-dd751ce}
name=$1; shift
train_on $name "$OLD $NEW $NEW3 $NEW4 $NEW5 $LAST" \
  --init $C/nnue/gen2ft5/all-lr5e-5-e4/best.ckpt --lr 0 --epochs 1 "$@"
grep -h "^epoch" $name.log
