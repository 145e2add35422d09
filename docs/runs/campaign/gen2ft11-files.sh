# Sourced by gen2ft11.sh (from 29 Nov, nineteenth session): the eleventh turn's data. OLD11 is
# gen2ft10's data (gen2ft10-files.sh's OLD10 and NEW10, its held-out set last as there); NEW11
# is what was made since gen2ft10's cut: the gen2ft7 seeds 2734/2735 beyond gen2ft10's
# snapshots (its full-S.bin), and the match PGNs converted from where gen2ft10 stopped
# (snapshot.sh's snap_convert): gen2ft8's SPRT from game 6,466, LmrNoisy's from 2,549 and Se's
# from 2,617 on the network engine, ProbCut at 160k from 506, MPC at 160k from 33, ProbCut at
# 40k from 986, and `Se`'s at 40k (se-sprt-40k.sh) from its first game. (gen2ft9's SPRT, which
# this table also named, never began: gen2ft11's took its place.) HELD is gen2ft6's held-out
# set again, so that the losses continue the series.
. /work/campaign/gen2ft10-files.sh
# the turn's lab: gen2ft10's (e285be7) unless GEN2FT11_LAB names another
LAB=$C/bin/augur-lab-${GEN2FT11_LAB:-e285be7}
mkdir -p $C/nnue/gen2ft11 && cd $C/nnue/gen2ft11
# the match PGNs, each from the game after gen2ft10's last, or from its first for the matches
# begun since (a table: PGN under $C, tag, first game; a PGN not yet begun is passed over; read
# on descriptor 3, so that nothing the conversions run can read the table's rest)
PGNS11="sprt/gen2ft8-all-b8-lr5e-5-e4.pgn sprt-0d278eb-gen2ft8-all-b8-lr5e-5-e4-vs-gen2ft7-n10000 6466
sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 2549
sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 2617
scaling/probcut/nodes-160000.pgn scaling-e3809f7-probcut-n160000 506
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 33
scaling/probcut/nodes-40000.pgn scaling-e3809f7-probcut-n40000 986
sprt/se-40k-0d278eb.pgn sprt-0d278eb-se-gen2ft7-n40000 1"
NEW11="$(for s in 2734 2735; do
    journalled_rest $C/datagen/selfplay-43be651-gen2ft7-h2-seed$s.bin $C/nnue/gen2ft10/full-$s.bin $s
  done)
  $(while read -r pgn tag from <&3; do
      if [ -f $C/$pgn ]; then snap_convert $C/$pgn $tag $from; fi
    done 3<<< "$PGNS11")"
OLD11="$OLD10 $NEW10"
