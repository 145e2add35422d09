# Sourced by gen2ft7.sh (from 28 Nov, fifteenth session): the seventh turn's data. OLD7 is
# gen2ft6's data (gen2ft6-files.sh's NEW6) less its held-out tail; NEW7 is what was made since
# gen2ft6's cut: the rest of datagen seed 2730 (gen2ft3, stopped in the fifteenth session),
# snapshots of the gen2ft5 files 2732/2733, and the match games converted: gen2ft5's SPRT
# (whole), and the running PGNs cut at their last complete game (snapshot.sh's snap_convert):
# gen2ft6's SPRT, LmrNoisy's and Se's SPRTs on the network engine, the study's Se point at 40k.
# HELD, gen2ft6's held-out set (the last 60,000 positions of its snap-2730.bin), ends every
# list, so that the losses continue gen2ft6's series (gen2ft6's candidate: 0.011113).
C=/work/campaign; V=$C/datagen/converted
. $C/gen2ft6-files.sh
# the turn's lab (gen2ft6-files.sh set its own); snapshot.sh's snap_convert converts with it
LAB=$C/bin/augur-lab-51f3364
mkdir -p $C/nnue/gen2ft7 && cd $C/nnue/gen2ft7
S6=$C/nnue/gen2ft6/snap-2730.bin
HELD=$PWD/heldout-gen2ft6.bin
held_out $S6 $HELD head-2730.bin
journalled_snapshot $C/datagen/selfplay-43be651-gen2ft3-h2-seed2730.bin full-2730.bin
rest_after $S6 full-2730.bin rest-2730.bin
SNAPS=""
for s in 2732 2733; do
  f=$C/datagen/selfplay-43be651-gen2ft5-h2-seed$s.bin
  [ -f $f.journal ] || continue
  journalled_snapshot $f snap-$s.bin
  SNAPS="$SNAPS $PWD/snap-$s.bin"
done
G5BIN=$V/sprt-0d278eb-gen2ft5-all-lr5e-5-e4-vs-gen2ft3-n10000.bin
[ -f $G5BIN ] || $LAB convert $C/sprt/gen2ft5-all-lr5e-5-e4.pgn --out $G5BIN > convert-gen2ft5.log 2>&1
NEW7="$PWD/rest-2730.bin $SNAPS $G5BIN
  $(snap_convert $C/sprt/gen2ft6-all-lr5e-5-e4.pgn sprt-0d278eb-gen2ft6-all-lr5e-5-e3-vs-gen2ft5-n10000)
  $(snap_convert $C/sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000)
  $(snap_convert $C/sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000)
  $(snap_convert $C/scaling/se/nodes-40000.pgn scaling-e3809f7-se-n40000)"
OLD7="${NEW6/$S6/$PWD/head-2730.bin}"
