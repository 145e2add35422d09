#!/bin/bash
# Generation 2's data, sourced by its three training scripts (nnue-checkpoint-gen2.sh,
# nnue-gen2-turn2.sh, nnue-gen2-kfile.sh): every file of the campaign on 27 Nov at 12:30, seed
# 2708 as a snapshot cut at its last journalled game (datagen kept writing the live file),
# seeds 2612 and 2611 last so that the held-out set is the same 26,489 positions of seed 2611
# as every checkpoint before. Sets C, S, FILES, TOTAL and VAL, in $C/nnue/gen2.
C=/work/campaign; S=/work/shared/data/datagen
mkdir -p $C/nnue/gen2 && cd $C/nnue/gen2
. $C/snapshot.sh
journalled_snapshot $C/datagen/selfplay-7fbeb95-gen1-seed2708.bin snap-2708.bin
FILES="$C/converted/interim-88857b3-seed004-n10000.bin $C/converted/scaling-e3809f7-calibration-n10000.bin
  $C/converted/scaling-e3809f7-seed004-n10000.bin $C/converted/scaling-e3809f7-se-n10000.bin
  $C/converted/scaling-e3809f7-probcut-n10000.bin $C/converted/sprt-02ea32d-stagedquiets-n10000.bin
  $C/converted/sprt-dcc08c2-se-n10000.bin $C/converted/sprt-4dce66a-nnue-gen1-n10000.bin
  $C/converted/grid-c12ce7b-uho-n5000.bin $C/converted/grid-03c6cf0-uho-n5000.bin
  $C/converted/grid-dcc08c2-uho-n5000.bin $C/converted/grid-dcc08c2-uho-n20000.bin
  $C/converted/proxy-8ddf1b6-gen1-n50k-vs-hce-n40k.bin $C/converted/gate-7fbeb95-gen1-vs-hce-10+0.1.bin
  $C/datagen/selfplay-88857b3-seed2701.bin $C/datagen/selfplay-e3809f7-seed2702.bin
  $C/datagen/selfplay-4dce66a-seed2703.bin $C/datagen/device/selfplay-4dce66a-seed2704.bin
  $C/datagen/device/selfplay-4dce66a-seed2705.bin $C/datagen/device/selfplay-4dce66a-seed2706.bin
  $C/datagen/selfplay-5833dc1-gen1-seed2707.bin $PWD/snap-2708.bin
  $C/datagen/device/selfplay-7fbeb95-gen1-seed2709.bin $C/datagen/device/selfplay-7fbeb95-gen1-seed2710.bin
  $C/datagen/device/selfplay-7fbeb95-gen1-seed2711.bin $C/datagen/device/selfplay-7fbeb95-gen1-seed2712.bin
  $S/selfplay-88857b3-seed2612.bin $S/selfplay-88857b3-seed2611.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(26489/$TOTAL)")
echo "total $TOTAL validation $VAL" | tee totals.txt
