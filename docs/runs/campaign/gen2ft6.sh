#!/bin/bash
# gen2ft6, the sixth fine-tune turn (from 28 Nov, fourteenth session): gen2ft5's candidate (its
# float model went with the machine, so --init reads the written file) fine-tuned on the 1.5 M
# positions made since the loss (gen2ft6-files.sh), lr 0.00005, 4 epochs, --rounding best. Its
# point is to keep what this data teaches in a committed network (and float model) before the
# next loss; the turn's SPRT waits for gen2ft5's. `base-*` are the baselines on the new held-out
# set: one epoch at lr 0 writes the init network again and reports its loss.
set -e
. /work/campaign/gen2ft6-files.sh
# gen2ft5's candidate, embedded in the fifteenth session (until then cand-gen2ft5-all-lr5e-5-e4.nnue)
G5=/work/main/docs/runs/nnue-checkpoints/ckpt-gen2ft5-7p19m-h256.nnue
G3=/work/main/docs/runs/nnue-checkpoints/ckpt-gen2ft3-4p98m-h256.nnue
train_on base-gen2ft3 "$NEW6" --init $G3 --lr 0 --epochs 1 --rounding best
train_on base-gen2ft5 "$NEW6" --init $G5 --lr 0 --epochs 1 --rounding best
train_on all-lr5e-5-e4 "$NEW6" --init $G5 --schedule cosine --weight-decay 0.01 --rounding best \
  --lr 0.00005 --epochs 4
