#!/bin/bash
# From scratch on every file since the lost machine (tenth session, a planning measurement; no
# games): generation 2's recipe (H 256, lr 0.004, weight decay 0.3, mirror, keep-best) for 16
# epochs, and for 24 with the cosine schedule, on 5.33 M positions (the whole finished files
# where gen2ft2-files.sh has snapshots, the HCE's shared seeds, gen2ft2's screens and SPRT), the
# same held-out positions and validation K as the gen2ft2 runs (train_on), so the losses read
# beside theirs (gen2ft2: 0.011334).
set -e
. /work/campaign/gen2ft2-files.sh
S=/work/shared/data/datagen
ALL="$S/selfplay-88857b3-seed2611.bin $S/selfplay-88857b3-seed2612.bin
  $V/scaling-e3809f7-mpc-n10000.bin $V/timed-gen2-3d5cd0d.bin
  $V/scaling-e3809f7-calibration-n40000.bin $V/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin
  $C/datagen/selfplay-0d278eb-gen2-h2-seed2722.bin $C/datagen/selfplay-0d278eb-gen2-h2-seed2723.bin
  $V/sprt-3d5cd0d-margins-gen2-n10000.bin
  $V/screen-0d278eb-ft-lr5e-5-wd0.01-vs-gen2.bin $V/screen-0d278eb-ft-lr5e-5-wd0.01-k145-vs-gen2.bin
  $V/sprt-0d278eb-gen2ft1-vs-gen2-n10000.bin
  $V/screen-0d278eb-gen2ft2-new-vs-gen2ft1.bin $V/screen-0d278eb-gen2ft2-all-vs-gen2ft1.bin
  $V/sprt-0d278eb-gen2ft2-vs-gen2ft1-n10000.bin
  $C/datagen/selfplay-0d278eb-gen2ft1-h2-seed2724.bin $C/datagen/selfplay-0d278eb-gen2ft1-h2-seed2725.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2801.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2802.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2803.bin $LAST"
SCRATCH="--lr 0.004 --weight-decay 0.3"
train_on scratch-h256 "$ALL" $SCRATCH --epochs 16
train_on scratch-h256-cos24 "$ALL" $SCRATCH --epochs 24 --schedule cosine
