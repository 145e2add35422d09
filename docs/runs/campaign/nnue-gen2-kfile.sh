#!/bin/bash
# Generation 2, third turn (27 Nov, fourth session): the campaign's sources fit their own
# results at different K (generation 1's self-play 134.8, the HCE's 153.1, match games
# 168-188), so one K gave one advantage targets up to 0.07 apart. The 16-epoch H = 128 recipe
# again with `--k-per-file` (33e573f: each file's scores times K / K_f; the held-out positions
# keep theirs, so the loss is comparable), then against generation 1 as before. Every
# file of the campaign so far, seed 2708 as a snapshot cut at its last journalled game (datagen
# keeps writing the live file), seeds 2612 and 2611 last so that the held-out set is the same
# 26,489 positions of seed 2611 as every checkpoint before. H = 128 and 256 (the sweep repeated
# at each generation), the 4.03 M recipe; then each against generation 1 (the default, embedded
# in 21097c0) at 10k nodes, 400 games, seed 2. Resumable: a finished step is skipped.
set -e
C=/work/campaign; S=/work/shared/data/datagen
mkdir -p $C/nnue/gen2 && cd $C/nnue/gen2
LIVE=$C/datagen/selfplay-7fbeb95-gen1-seed2708.bin
if [ ! -f snap-2708.bin ]; then
  N=$(awk 'NR > 1 { n += $2 } END { print n }' $LIVE.journal)
  head -c $(( N * 32 )) $LIVE > snap-2708.bin
fi
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
B=$C/bin/augur-21097c0
[ -f v-h128-kfile/augur.nnue ] || nice -n 10 $C/bin/augur-lab-33e573f train $FILES --validation $VAL \
  --validation-k 156.8 --k-per-file --hidden 128 --mirror --keep-best --lr 0.004 --weight-decay 0.3 \
  --epochs 16 --batch 4096 --threads 1 --quiet --out v-h128-kfile > v-h128-kfile.log 2>&1
nice -n 10 $C/bin/augur-lab-21097c0 match \
  --engine name=gen2-v-h128-kfile,cmd=$B,option.EvalFile=$PWD/v-h128-kfile/augur.nnue \
  --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn v-h128-kfile-vs-gen1.pgn > v-h128-kfile-vs-gen1.txt 2>&1
