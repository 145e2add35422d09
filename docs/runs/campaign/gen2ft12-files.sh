# Sourced by gen2ft12.sh (from 29 Nov, twenty-first session): the twelfth turn's data. OLD12 is
# gen2ft11's data (gen2ft11-files.sh's OLD11 and NEW11); NEW12 is what was made since gen2ft11's
# cut (snapshot.sh's turn_new): the gen2ft7 seeds 2734/2735 beyond gen2ft11's full-S.bin, the
# seeds begun since (2736/2737, if gen2ft11 passed its SPRT and datagen moved to it), and the
# match PGNs from the game after gen2ft11's last: gen2ft8's SPRT from 10,930 (to its cap),
# gen2ft11's from its first, `Se` at 40k from 469 (to its end), LmrNoisy's from 2,611 and Se's
# from 2,688 on the network engine, the study's ProbCut at 160k from 763, its calibration at 160k
# from its first and MPC at 160k from 33. HELD is gen2ft6's held-out set again, so that the
# losses continue the series.
. /work/campaign/gen2ft11-files.sh
# the turn's lab: gen2ft11's (e285be7) unless GEN2FT12_LAB names another
LAB=$C/bin/augur-lab-${GEN2FT12_LAB:-e285be7}
mkdir -p $C/nnue/gen2ft12 && cd $C/nnue/gen2ft12
DATAGEN12="$C/datagen/selfplay-43be651-gen2ft7-h2-seed2734.bin $C/nnue/gen2ft11/full-2734.bin 2734
$C/datagen/selfplay-43be651-gen2ft7-h2-seed2735.bin $C/nnue/gen2ft11/full-2735.bin 2735"
for s in 2736 2737; do
  for f in $C/datagen/selfplay-*-gen2ft11-h2-seed$s.bin; do
    if [ -f $f ]; then DATAGEN12="$DATAGEN12
$f - $s"; fi
  done
done
PGNS12="sprt/gen2ft8-all-b8-lr5e-5-e4.pgn sprt-0d278eb-gen2ft8-all-b8-lr5e-5-e4-vs-gen2ft7-n10000 10930
sprt/gen2ft11-all-b8-lr5e-5-e4.pgn sprt-0d278eb-gen2ft11-all-b8-lr5e-5-e4-vs-gen2ft7-n10000 1
sprt/se-40k-0d278eb.pgn sprt-0d278eb-se-gen2ft7-n40000 469
sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 2611
sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 2688
scaling/probcut/nodes-160000.pgn scaling-e3809f7-probcut-n160000 763
scaling/calibration/nodes-160000.pgn scaling-e3809f7-calibration-n160000 1
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 33"
NEW12="$(turn_new "$DATAGEN12" "$PGNS12")"
OLD12="$OLD11 $NEW11"
