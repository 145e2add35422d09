#!/bin/bash
# Generation 2's fine-tune (ninth session, 28 Nov), sourced by nnue-ft-gen2.sh, ft-variants.sh
# and ft-screen.sh: every file made since the lost machine except the HCE's shared seeds
# 2611/2612, the two live datagen files as snapshots cut at their last journalled game, seed
# 2721 (a finished generation 2 file) last with its final 60,000 positions held out. Sets C,
# NET, FILES and VAL in $C/nnue/ft2, and `ft_train NAME ARGS...`: generation 2 fine-tuned into
# NAME/ with the shared settings plus ARGS (skipped once NAME/augur.nnue exists).
C=/work/campaign; NET=$C/nets/gen2-6p99m-h256.nnue
mkdir -p $C/nnue/ft2 && cd $C/nnue/ft2
. $C/snapshot.sh
for s in 2722 2723; do
  journalled_snapshot $C/datagen/selfplay-0d278eb-gen2-h2-seed$s.bin snap-$s.bin
done
FILES="$C/datagen/converted/scaling-e3809f7-mpc-n10000.bin $C/datagen/converted/timed-gen2-3d5cd0d.bin
  $C/datagen/converted/scaling-e3809f7-calibration-n40000.bin $C/datagen/converted/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $PWD/snap-2722.bin $PWD/snap-2723.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(60000/$TOTAL)")
echo "total $TOTAL validation $VAL" > totals.txt
ft_train() {
  local name=$1; shift
  [ -f $name/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --init $NET \
    --validation $VAL --hidden 256 --mirror --keep-best --schedule cosine --batch 4096 \
    --threads 1 --quiet --out $name "$@" > $name.log 2>&1
}
