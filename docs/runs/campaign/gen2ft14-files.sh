# Sourced by gen2ft14.sh (from 30 Nov, twenty-fourth session): the fourteenth turn's data.
# gen2ft13 trained on the 1.19 M positions made since the third lost machine alone and stood at
# about -13 nElo against gen2ft12 after 1,367 games; this turn takes more data and a held-out set
# from a seed nothing is trained on. OLD14 is gen2ft13's data whole (seed 2738, seed 2739 with
# the 60,000 positions that were gen2ft13's held-out set, and its five converted PGN pieces).
# HELD is the last 60,000 positions of the device machine's seed 2808 (gen2ft12's self-play,
# made in this session); no position of seed 2808 is trained on, in this turn or after it.
# NEW14 (snapshot.sh's turn_new): the gen2ft12 seeds 2740/2741 from their first game, the device
# machine's seeds 2805-2807 (whole files, made and cut at their last game in this session), and
# the match PGNs from the game after gen2ft13's cut: gen2ft13's SPRT from its first game (stopped
# for this turn), the study's calibration at 160k from 877 and MPC at 160k from 321, its seed-004
# and `Se` points at 160k from their first (passed over until they begin).
C=/work/campaign; V=$C/datagen/converted
. $C/snapshot.sh
LAB=$C/bin/augur-lab-${GEN2FT14_LAB:-703a642-v3}
mkdir -p $C/nnue/gen2ft14 && cd $C/nnue/gen2ft14
G13=$C/nnue/gen2ft13
OLD14="$G13/full-2738.bin $G13/full-2739.bin $V/scaling-e3809f7-calibration-n160000-g455-876.bin
$V/scaling-e3809f7-mpc-n160000-g33-320.bin $V/sprt-0d278eb-se-f8eec28-n10000-g2768-2778.bin
$V/sprt-43be651-lmrnoisy-n10000-g2690-2700.bin
$V/sprt-703a642-gen2ft12-all-b8-lr5e-5-e4-vs-gen2ft11-n10000-g1-5979.bin"
D=$C/datagen/device/selfplay-703a642-gen2ft12-h2-seed
HELD=$PWD/heldout-gen2ft14.bin
held_out ${D}2808.bin $HELD
DATAGEN14="$C/datagen/selfplay-703a642-gen2ft12-h2-seed2740.bin - 2740
$C/datagen/selfplay-703a642-gen2ft12-h2-seed2741.bin - 2741"
PGNS14="sprt/gen2ft13-all-b8-lr5e-5-e4.pgn sprt-703a642-gen2ft13-all-b8-lr5e-5-e4-vs-gen2ft12-n10000 1
scaling/calibration/nodes-160000.pgn scaling-e3809f7-calibration-n160000 877
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 321
scaling/seed004/nodes-160000.pgn scaling-e3809f7-seed004-n160000 1
scaling/se/nodes-160000.pgn scaling-e3809f7-se-n160000 1"
mkdir -p $V
NEW14="${D}2805.bin ${D}2806.bin ${D}2807.bin $(turn_new "$DATAGEN14" "$PGNS14")"
