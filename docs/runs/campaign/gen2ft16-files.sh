# Sourced by gen2ft16.sh (from 1 Dec, twenty-eighth session): the sixteenth turn's data, the
# first after the fifth lost machine, which took every datagen file again (seeds 2742/2743,
# gen2ft15's data among them, and the held-out seed 2744). What survived is what save-state.sh
# commits: the unfinished matches' PGNs. The sixth lost machine (between the twenty-eighth and
# twenty-ninth sessions) took seeds 2745/2746's files in turn, before any turn had read them.
# NEW16 (snapshot.sh's turn_new): the gen2ft12 seeds 2747/2748 (from the twenty-ninth session;
# seeds 2745/2746 would replay the lost files' games) from their first game, and the
# match PGNs from the game after gen2ft15's cut: gen2ft15's SPRT from its first game, the
# study's MPC at 160k from 1,024, its seed-004 point at 160k from 513 and its `Se` point from
# its first (passed over until it begins). HELD: seed 2744 again, made anew by start-datagen.sh
# (a seed replays its games exactly); the turn checks that it is the very file gen2ft15 was
# measured on (SHA-256 b65d6d81...) before it cuts its last 60,000 positions.
C=/work/campaign; V=$C/datagen/converted
. $C/snapshot.sh
LAB=$C/bin/augur-lab-${GEN2FT16_LAB:-703a642-v3}
turn_begin gen2ft16 || exit 1
DATAGEN16="$C/datagen/selfplay-703a642-gen2ft12-h2-seed2747.bin - 2747
$C/datagen/selfplay-703a642-gen2ft12-h2-seed2748.bin - 2748"
PGNS16="sprt/gen2ft15-all-b8-lr2.5e-5-e4.pgn sprt-703a642-gen2ft15-all-b8-lr2.5e-5-e4-vs-gen2ft12-n10000 1
scaling/mpc/nodes-160000.pgn scaling-e3809f7-mpc-n160000 1024
scaling/seed004/nodes-160000.pgn scaling-e3809f7-seed004-n160000 513
scaling/se/nodes-160000.pgn scaling-e3809f7-se-n160000 1"
mkdir -p $V
NEW16="$(turn_new "$DATAGEN16" "$PGNS16")"
