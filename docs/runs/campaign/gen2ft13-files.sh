# Sourced by gen2ft13.sh (from 29 Nov, twenty-second session): the thirteenth turn's data, the
# first after the third lost machine took every datagen file and gen2ft6's held-out set. So the
# turn has no OLD list: it trains on what was made since the loss, and its held-out set is new.
# HELD is the last 60,000 positions of seed 2739's snapshot (gen2ft11 on 703a642, `Se` on), cut
# at its last journalled game; the rest of that snapshot (head-2739.bin) is trained on, and the
# next turn takes seed 2739 from beyond full-2739.bin, so no held-out position is ever trained
# on. The initial loss the trainer prints is the --init network's own on HELD, the new series'
# first point. NEW13 (snapshot.sh's turn_new): seed 2738 whole (begun since the loss) and the
# match PGNs from the game after gen2ft12's cut (its turn converted to there): gen2ft12's SPRT
# from its first game, the study's calibration at 160k from 455 and MPC at 160k from 33, and its
# seed-004 and `Se` points at 160k from their first (passed over until they begin), LmrNoisy's
# network SPRT from 2,690 and Se's from 2,768 (both stopped at the twenty-second session). The
# study's ProbCut games 1,075–1,100 at 160k went with the machine.
# Run at 23:29 in the twenty-third session, as gen2ft12 passed and seeds 2738/2739 ended: their
# snapshots are the seeds' whole journalled files, so the next turn takes nothing more from
# them, and the gen2ft12 seeds 2740/2741 from their first game.
C=/work/campaign; V=$C/datagen/converted
. $C/snapshot.sh
# the turn's lab: datagen's 703a642 (the trainer of e285be7, which gen2ft9–gen2ft12 used, with
# no change to `train` since; not rebuilt after the loss) unless GEN2FT13_LAB names another
LAB=$C/bin/augur-lab-${GEN2FT13_LAB:-703a642-v3}
mkdir -p $C/nnue/gen2ft13 && cd $C/nnue/gen2ft13
journalled_snapshot $C/datagen/selfplay-703a642-gen2ft11-h2-seed2739.bin full-2739.bin
HELD=$PWD/heldout-gen2ft13.bin
held_out full-2739.bin $HELD head-2739.bin
DATAGEN13="$C/datagen/selfplay-703a642-gen2ft11-h2-seed2738.bin - 2738"
PGNS13="sprt/gen2ft12-all-b8-lr5e-5-e4.pgn sprt-703a642-gen2ft12-all-b8-lr5e-5-e4-vs-gen2ft11-n10000 1
scaling/calibration/nodes-160000.pgn scaling-e3809f7-calibration-n160000 455
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 33
scaling/seed004/nodes-160000.pgn scaling-e3809f7-seed004-n160000 1
scaling/se/nodes-160000.pgn scaling-e3809f7-se-n160000 1
sprt/lmrnoisy-43be651.pgn sprt-43be651-lmrnoisy-n10000 2690
sprt/se-f8eec28.pgn sprt-0d278eb-se-f8eec28-n10000 2768"
mkdir -p $V
NEW13="$PWD/head-2739.bin $(turn_new "$DATAGEN13" "$PGNS13")"
