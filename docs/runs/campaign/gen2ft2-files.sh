#!/bin/bash
# gen2ft2's data (tenth session, 28 Nov), sourced by gen2ft2.sh, gen2ft2-variants.sh and
# gen2ft2-scratch.sh, in $C/nnue/gen2ft2. NEW: the data made since gen2ft1's snapshot (the rest
# of seeds 2722/2723 after ft-files.sh's snapshots, the margins' SPRT, the two screens and
# gen2ft1's SPRT converted, snapshots of the live gen2ft1 files 2724/2725, device seeds
# 2801-2803); OLD: gen2ft1's own data (ft-files.sh's list); LAST: device seed 2804, whose final
# 60,000 positions every run holds out. `train_on NAME "FILES" ARGS...` trains NAME/ on FILES
# (LAST must end them) with the shared settings plus ARGS, validation loss at K 132.2 (gen2ft1's
# fitted K) so that every run compares on one yardstick; skipped once NAME/augur.nnue exists.
# LAB names the trainer (default 3d5cd0d's x86-64-v3 build; gen2ft3q.sh sets e26b647's), NICE its
# priority (default 19; gen2ft5.sh, thirteenth session, may run it at 0).
C=/work/campaign; NET=$C/nets/gen2ft1-1p77m-h256.nnue
D=$C/datagen/device; V=$C/datagen/converted
mkdir -p $C/nnue/gen2ft2 && cd $C/nnue/gen2ft2
# the trainer when LAB is unset at train_on's call (a later script may set LAB after this)
DEFAULT_LAB=$C/bin/augur-lab-3d5cd0d-v3
. $C/snapshot.sh
turn_snapshots $C/nnue/ft2 gen2 "2722 2723" gen2ft1 "2724 2725"
NEW="$PWD/rest-2722.bin $PWD/rest-2723.bin $V/sprt-3d5cd0d-margins-gen2-n10000.bin
  $V/screen-0d278eb-ft-lr5e-5-wd0.01-vs-gen2.bin $V/screen-0d278eb-ft-lr5e-5-wd0.01-k145-vs-gen2.bin
  $V/sprt-0d278eb-gen2ft1-vs-gen2-n10000.bin $PWD/snap-2724.bin $PWD/snap-2725.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2801.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2802.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2803.bin"
OLD="$V/scaling-e3809f7-mpc-n10000.bin $V/timed-gen2-3d5cd0d.bin
  $V/scaling-e3809f7-calibration-n40000.bin $V/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $C/nnue/ft2/snap-2722.bin $C/nnue/ft2/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin"
LAST=$D/selfplay-0d278eb-gen2ft1-h2-seed2804.bin
