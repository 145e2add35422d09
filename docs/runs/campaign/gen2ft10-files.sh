# Sourced by gen2ft10.sh (from 29 Nov, eighteenth session): the tenth turn's data. OLD10 is
# gen2ft9's data (gen2ft9-files.sh's OLD9 and NEW9, its held-out set last as there); NEW10 is
# what was made since gen2ft9's cut: the gen2ft7 seeds 2734/2735 beyond gen2ft9's snapshots,
# and the match PGNs converted from where gen2ft9 stopped (snapshot.sh's snap_convert): gen2ft8's
# SPRT from game 2,328, LmrNoisy's from 2,503 and Se's from 2,566 on the network engine, the
# study's Se point at 40k from game 2,000 (its last), ProbCut at 160k from 326, MPC at 160k from
# 32 and ProbCut at 40k from game 1. HELD is gen2ft6's held-out set again, so that the losses
# continue the series.
. /work/campaign/gen2ft9-files.sh
# the turn's lab: gen2ft9's (e285be7) unless GEN2FT10_LAB names another
LAB=$C/bin/augur-lab-${GEN2FT10_LAB:-e285be7}
mkdir -p $C/nnue/gen2ft10 && cd $C/nnue/gen2ft10
NEW10="$(for s in 2734 2735; do
    journalled_rest $C/datagen/selfplay-43be651-gen2ft7-h2-seed$s.bin $C/nnue/gen2ft9/snap-$s.bin $s
  done)
  $(snap_convert $C/sprt/gen2ft8-all-b8-lr5e-5-e4.pgn sprt-0d278eb-gen2ft8-all-b8-lr5e-5-e4-vs-gen2ft7-n10000 2328)
  $(snap_convert $C/sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 2503)
  $(snap_convert $C/sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 2566)
  $(snap_convert $C/scaling/se/nodes-40000.pgn scaling-e3809f7-se-n40000 2000)
  $(snap_convert $C/scaling/probcut/nodes-160000.pgn scaling-e3809f7-probcut-n160000 326)
  $(snap_convert $C/scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 32)
  $(snap_convert $C/scaling/probcut/nodes-40000.pgn scaling-e3809f7-probcut-n40000)"
OLD10="$OLD9 $NEW9"
