# Sourced by gen2ft15.sh (from 1 Dec, twenty-seventh session): the fifteenth turn's data, the
# first after the fourth lost machine, which took every datagen file (gen2ft14's data among
# them). What survived is what save-state.sh commits: the unfinished matches' PGNs, so gen2ft14's
# SPRT (12,000 games at 10k nodes, gen2ft14 against gen2ft12, never trained on) is most of it.
# NEW15 (snapshot.sh's turn_new): the gen2ft12 seeds 2742/2743 from their first game, and the
# match PGNs from the game after gen2ft14's cut: gen2ft14's SPRT from its first game, the
# study's MPC at 160k from 407, its seed-004 and `Se` points at 160k from their first (the
# `Se` point passed over until it begins). HELD: device seed 2808 went with the machine, so the
# held-out set is a seed of its own, 2744, made to 60,000 positions by start-datagen.sh and
# never trained on, now or later; every turn from this one is measured on it.
C=/work/campaign; V=$C/datagen/converted
. $C/snapshot.sh
LAB=$C/bin/augur-lab-${GEN2FT15_LAB:-703a642-v3}
turn_begin gen2ft15 || exit 1
DATAGEN15="$C/datagen/selfplay-703a642-gen2ft12-h2-seed2742.bin - 2742
$C/datagen/selfplay-703a642-gen2ft12-h2-seed2743.bin - 2743"
PGNS15="sprt/gen2ft14-all-b8-lr5e-5-e4.pgn sprt-703a642-gen2ft14-all-b8-lr5e-5-e4-vs-gen2ft12-n10000 1
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 407
scaling/seed004/nodes-160000.pgn scaling-e3809f7-seed004-n160000 1
scaling/se/nodes-160000.pgn scaling-e3809f7-se-n160000 1"
mkdir -p $V
NEW15="$(turn_new "$DATAGEN15" "$PGNS15")"
