# Sourced by gen2ft8.sh (from 29 Nov, sixteenth session): the eighth turn's data. OLD8 is
# gen2ft7's data (gen2ft7-files.sh's OLD7 and NEW7, its held-out set last as there); NEW8 is what
# was made since gen2ft7's cut: the rest of datagen seed 2732 (gen2ft5) beyond gen2ft7's
# snapshot, and the running PGNs converted from where gen2ft7 stopped (snapshot.sh's
# snap_convert): gen2ft7's own SPRT (from game 1), LmrNoisy's and Se's SPRTs on the network
# engine, the study's Se point at 40k and its first games at 160k. HELD is gen2ft6's held-out
# set again, so that the losses continue the series (gen2ft7's candidate: 0.011074).
. /work/campaign/gen2ft7-files.sh
# the turn's lab (gen2ft7-files.sh set 51f3364's); it converts and trains ([train-rebucket])
LAB=$C/bin/augur-lab-${GEN2FT8_LAB:?the commit of the lab built for gen2ft8}
mkdir -p $C/nnue/gen2ft8 && cd $C/nnue/gen2ft8
NEW8="$(journalled_rest $C/datagen/selfplay-43be651-gen2ft5-h2-seed2732.bin $C/nnue/gen2ft7/snap-2732.bin 2732)
  $(snap_convert $C/sprt/gen2ft7-all-lr5e-5-e4.pgn sprt-0d278eb-gen2ft7-all-lr5e-5-e3-vs-gen2ft5-n10000)
  $(snap_convert $C/sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 1628)
  $(snap_convert $C/sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 1645)
  $(snap_convert $C/scaling/se/nodes-40000.pgn scaling-e3809f7-se-n40000 723)
  $(snap_convert $C/scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000)
  $(snap_convert $C/scaling/probcut/nodes-160000.pgn scaling-e3809f7-probcut-n160000)"
OLD8="$OLD7 $NEW7"
