#!/bin/bash
# gen2ft3's data (eleventh session, 28 Nov), sourced by gen2ft3.sh in $C/nnue/gen2ft3. It takes
# gen2ft2's lists (gen2ft2-files.sh: OLD, NEW, LAST, train_on) and adds NEW3, the data made since
# gen2ft2's snapshots: the rest of seeds 2724/2725 (gen2ft1) after them, gen2ft2's two screens
# and its SPRT converted, and snapshots of the live gen2ft2 files 2726/2727. LAST (device seed
# 2804, whose final 60,000 positions every run holds out) still ends every list, so gen2ft3's
# losses read on gen2ft2's yardstick (K 132.2). NET is now gen2ft2, the embedded network.
. /work/campaign/gen2ft2-files.sh
NET=$C/nets/gen2ft2-4p41m-h256.nnue
mkdir -p $C/nnue/gen2ft3 && cd $C/nnue/gen2ft3
turn_snapshots $C/nnue/gen2ft2 gen2ft1 "2724 2725" gen2ft2 "2726 2727"
NEW3="$PWD/rest-2724.bin $PWD/rest-2725.bin $V/screen-0d278eb-gen2ft2-new-vs-gen2ft1.bin
  $V/screen-0d278eb-gen2ft2-all-vs-gen2ft1.bin $V/sprt-0d278eb-gen2ft2-vs-gen2ft1-n10000.bin
  $PWD/snap-2726.bin $PWD/snap-2727.bin"
