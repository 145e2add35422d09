#!/bin/bash
# gen2ft5's data (thirteenth session, 28 Nov), sourced by gen2ft5.sh in $C/nnue/gen2ft5. It takes
# gen2ft4's lists (gen2ft4-files.sh: OLD, NEW, NEW3, NEW4, LAST, train_on) and adds NEW5, the data
# made since gen2ft4's cut: the last games of seeds 2726/2727 (gen2ft2) beyond gen2ft3's snapshots
# and gen2ft4's rests, the rest of gen2ft3's second SPRT (games 6001-7451), the seed-004 point at
# 40k nodes, snapshots of the live gen2ft3 files 2728/2729, and gen2ft4's SPRT (running) converted
# up to its last complete game at the cut (snapshot.sh's `pgn_snapshot`). NET is gen2ft4's
# candidate, INIT its float model (best.ckpt: epoch 2, the kept one). LAST still ends every list
# (the held-out yardstick).
. /work/campaign/gen2ft4-files.sh
NET=$C/nnue/gen2ft4/all-lr5e-5-e4/augur.nnue
INIT=$C/nnue/gen2ft4/all-lr5e-5-e4/best.ckpt
mkdir -p $C/nnue/gen2ft5 && cd $C/nnue/gen2ft5
for s in 2726 2727; do
  rest_after "$C/nnue/gen2ft3/snap-$s.bin $C/nnue/gen2ft4/rest-$s.bin" \
    $C/datagen/selfplay-0d278eb-gen2ft2-h2-seed$s.bin last-$s.bin
done
for s in 2728 2729; do
  journalled_snapshot $C/datagen/selfplay-0d278eb-gen2ft3-h2-seed$s.bin snap-$s.bin
done
pgn_snapshot $C/sprt/gen2ft4-all-lr5e-5-e4.pgn sprt-gen2ft4-snap.pgn
G4=$(grep -c '^\[Event ' sprt-gen2ft4-snap.pgn)
G4BIN=$V/sprt-0d278eb-gen2ft4-all-lr5e-5-e4-vs-gen2ft3-n10000-g1-$G4.bin
[ -f $G4BIN ] || ${LAB:-$C/bin/augur-lab-dd751ce} convert sprt-gen2ft4-snap.pgn --out $G4BIN > convert-gen2ft4.log 2>&1
NEW5="$PWD/last-2726.bin $PWD/last-2727.bin
  $V/sprt-0d278eb-gen2ft3-q-all-lr5e-5-e4-vs-gen2ft2-n10000-g6001-7451.bin
  $V/scaling-e3809f7-seed004-n40000.bin $PWD/snap-2728.bin $PWD/snap-2729.bin $G4BIN"
