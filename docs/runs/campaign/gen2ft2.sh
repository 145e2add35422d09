#!/bin/bash
# The second fine-tune turn (from 28 Nov, tenth session): gen2ft1 (embedded in 5ec34d1) fine-tuned
# again with the recipe that passed (lr 0.00005, decoupled weight decay 0.01, 4 epochs, cosine,
# keep-best), on the data made since gen2ft1's snapshot: the rest of seeds 2722/2723 after the
# snapshot, the margins' SPRT, the two screens and gen2ft1's SPRT converted, the device burst
# (seeds 2801-2804, 16 threads) and snapshots of the live gen2ft1 files 2724/2725.
#   new: that data only (2.5 M); all: gen2ft1's 1.77 M as well.
# Both hold out the last 60,000 positions of device seed 2804 (the last file) and report the
# validation loss at K 132.2 (gen2ft1's fitted K) so they compare on one yardstick. Then
# 400-game screens of each against gen2ft1 at 10k nodes (UHO sample, seed 89). Resumable: a
# finished step is skipped (a screen resumes from its PGN).
set -e
C=/work/campaign; NET=$C/nets/gen2ft1-1p77m-h256.nnue
mkdir -p $C/nnue/gen2ft2 && cd $C/nnue/gen2ft2
for s in 2722 2723; do
  [ -f rest-$s.bin ] || tail -c +$(( $(stat -c %s $C/nnue/ft2/snap-$s.bin) + 1 )) \
    $C/datagen/selfplay-0d278eb-gen2-h2-seed$s.bin > rest-$s.bin
done
for s in 2724 2725; do
  LIVE=$C/datagen/selfplay-0d278eb-gen2ft1-h2-seed$s.bin
  if [ ! -f snap-$s.bin ]; then
    N=$(awk 'NR > 1 { n += $2 } END { print n }' $LIVE.journal)
    head -c $(( N * 32 )) $LIVE > snap-$s.bin
  fi
done
D=$C/datagen/device; V=$C/datagen/converted
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
train() { # NAME FILES...
  local name=$1; shift
  local total=$(( $(cat "$@" | wc -c) / 32 ))
  local val=$(python3 -c "print(60000/$total)")
  echo "$name total $total validation $val" >> totals.txt
  [ -f $name/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train "$@" --init $NET \
    --validation $val --validation-k 132.2 --hidden 256 --mirror --keep-best --schedule cosine \
    --batch 4096 --threads 1 --quiet --lr 0.00005 --weight-decay 0.01 --epochs 4 --out $name \
    > $name.log 2>&1
}
train new $NEW $LAST
train all $OLD $NEW $LAST
B=$C/bin/augur-0d278eb-pgo3
for v in new all; do
  nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
    --engine name=gen2ft2-$v,cmd=$B,option.EvalFile=$PWD/$v/augur.nnue \
    --engine name=gen2ft1,cmd=$B,option.EvalFile=$NET --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 89 \
    --tc nodes=10000 --concurrency 1 --games 400 --pgn $PWD/$v-vs-gen2ft1.pgn > $v-vs-gen2ft1.txt 2>&1
done
