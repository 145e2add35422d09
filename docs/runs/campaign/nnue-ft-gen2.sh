#!/bin/bash
# Generation 2 fine-tuned on its own self-play (from 28 Nov, ninth session). Generation 2 was
# trained on 6.99 M positions that were lost with the machine; the data made since (1.8 M,
# mostly generation 2's own self-play at 5,000 nodes) is not yet enough to train a successor
# from scratch, but fine-tuning kept what the lost data taught before (generation 4 in
# docs/nnue.md: +44.5 Elo over its parent). Files: every file made since the loss except the
# HCE's shared seeds 2611/2612; the two live datagen files as snapshots cut at their last
# journalled game; seed 2721 (a finished generation 2 file) last, its final 60,000 positions
# held out. Fitted K, mirror, lr 0.001 cosine, weight decay 0.3, 6 epochs, `--keep-best`.
# Then an SPRT [0, 5] against generation 2 (embedded) at 10k nodes, UHO sample, seed 86,
# capped at 3,000 games. Resumable: a finished step is skipped, the SPRT resumes from its PGN.
set -e
C=/work/campaign
mkdir -p $C/nnue/ft2 && cd $C/nnue/ft2
for s in 2722 2723; do
  LIVE=$C/datagen/selfplay-0d278eb-gen2-h2-seed$s.bin
  if [ ! -f snap-$s.bin ]; then
    N=$(awk 'NR > 1 { n += $2 } END { print n }' $LIVE.journal)
    head -c $(( N * 32 )) $LIVE > snap-$s.bin
  fi
done
FILES="$C/datagen/converted/scaling-e3809f7-mpc-n10000.bin $C/datagen/converted/timed-gen2-3d5cd0d.bin
  $C/datagen/converted/scaling-e3809f7-calibration-n40000.bin $C/datagen/converted/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $PWD/snap-2722.bin $PWD/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(60000/$TOTAL)")
echo "total $TOTAL validation $VAL" | tee totals.txt
NET=$C/nets/gen2-6p99m-h256.nnue
[ -f ft/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --init $NET \
  --validation $VAL --hidden 256 --mirror --keep-best --lr 0.001 --schedule cosine \
  --weight-decay 0.3 --epochs 6 --batch 4096 --threads 1 --quiet --out ft > ft.log 2>&1
B=$C/bin/augur-0d278eb-pgo3
nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
  --engine name=gen2-ft,cmd=$B,option.EvalFile=$PWD/ft/augur.nnue \
  --engine name=gen2,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 86 \
  --tc nodes=10000 --concurrency 1 --games 3000 --sprt 0,5 \
  --change "generation 2 fine-tuned on 1.8 M positions of its own self-play" --commit 0d278eb \
  --pgn $C/sprt/ft-gen2-0d278eb.pgn >> $C/logs/sprt-ft-gen2.log 2>&1
