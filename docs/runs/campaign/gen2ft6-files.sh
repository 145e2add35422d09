# Sourced by gen2ft6.sh (from 28 Nov, fourteenth session): the sixth turn's data, everything
# made since the machine's second loss. Converted: gen2ft4's SPRT (all 12,000 games; its first
# 5,042 were in gen2ft5's data before the loss), the correction history's SPRT (955 games), the
# scaling study's MPC point at 40k (2,000 games of e3809f7, the HCE engine); the live datagen
# files as journalled snapshots, seed 2730's last (its final 60,000 positions are the held-out
# set: the lost seed 2721 held the old one, so these losses start a new series).
C=/work/campaign; V=$C/datagen/converted
LAB=${LAB:-$C/bin/augur-lab-43be651-v3}
mkdir -p $C/nnue/gen2ft6 && cd $C/nnue/gen2ft6
. $C/snapshot.sh
for s in 2731 2730; do
  journalled_snapshot $C/datagen/selfplay-43be651-gen2ft3-h2-seed$s.bin snap-$s.bin
done
[ -f $V/scaling-e3809f7-mpc-n40000.bin ] || \
  $LAB convert $C/scaling/mpc/nodes-40000.pgn --out $V/scaling-e3809f7-mpc-n40000.bin > convert-mpc40k.log 2>&1
NEW6="$V/sprt-0d278eb-gen2ft4-all-lr5e-5-e4-vs-gen2ft3-n10000.bin $V/sprt-43be651-corrhist-n10000.bin
  $V/scaling-e3809f7-mpc-n40000.bin $PWD/snap-2731.bin $PWD/snap-2730.bin"
