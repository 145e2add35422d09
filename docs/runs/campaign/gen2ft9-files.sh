# Sourced by gen2ft9.sh (from 29 Nov, seventeenth session): the ninth turn's data. OLD9 is
# gen2ft8's data (gen2ft8-files.sh's OLD8 and NEW8, its held-out set last as there); NEW9 is what
# was made since gen2ft8's cut: the rest of datagen seed 2732 (gen2ft5, ended at 279,402
# positions) beyond gen2ft8's snapshot, snapshots of the gen2ft7 seeds 2734/2735, and the
# match PGNs converted from where gen2ft8 stopped (snapshot.sh's snap_convert): the rest of
# gen2ft7's finished SPRT (its last game too), gen2ft8's own SPRT (from game 1),
# LmrNoisy's and Se's SPRTs on the network engine, the study's Se point at 40k and its 160k
# games. HELD is gen2ft6's held-out set again, so that the losses continue the series.
GEN2FT8_LAB=${GEN2FT8_LAB:-e285be7}
. /work/campaign/gen2ft8-files.sh
# the turn's lab: e285be7 (gen2ft8's) unless GEN2FT9_LAB names another
LAB=$C/bin/augur-lab-${GEN2FT9_LAB:-e285be7}
mkdir -p $C/nnue/gen2ft9 && cd $C/nnue/gen2ft9
REST2732=$(journalled_rest $C/datagen/selfplay-43be651-gen2ft5-h2-seed2732.bin $C/nnue/gen2ft8/full-2732.bin 2732)
SNAPS=""
for s in 2734 2735; do
  journalled_snapshot $C/datagen/selfplay-43be651-gen2ft7-h2-seed$s.bin snap-$s.bin
  SNAPS="$SNAPS $PWD/snap-$s.bin"
done
NEW9="$REST2732 $SNAPS
  $(snap_convert $C/sprt/gen2ft7-all-lr5e-5-e4.pgn sprt-0d278eb-gen2ft7-all-lr5e-5-e3-vs-gen2ft5-n10000 6159)
  $(snap_convert $C/sprt/gen2ft8-all-b8-lr5e-5-e4.pgn sprt-0d278eb-gen2ft8-all-b8-lr5e-5-e4-vs-gen2ft7-n10000)
  $(snap_convert $C/sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 2446)
  $(snap_convert $C/sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 2499)
  $(snap_convert $C/scaling/se/nodes-40000.pgn scaling-e3809f7-se-n40000 1271)
  $(snap_convert $C/scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 32)
  $(snap_convert $C/scaling/probcut/nodes-160000.pgn scaling-e3809f7-probcut-n160000 96)"
OLD9="$OLD8 $NEW8"
# (FT9, the settings of the 8-bucket turns from gen2ft9 on, is snapshot.sh's)
