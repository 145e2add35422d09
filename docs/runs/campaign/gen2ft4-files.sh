#!/bin/bash
# gen2ft4's data (twelfth session, 28 Nov), sourced by gen2ft4.sh in $C/nnue/gen2ft4. It takes
# gen2ft3's lists (gen2ft3-files.sh: OLD, NEW, NEW3, LAST, train_on) and adds NEW4, the data made
# since gen2ft3's snapshots: the rest of seeds 2726/2727 (gen2ft2) after them, and gen2ft3's two
# SPRTs converted (the first try's 1,090 games, the second's first 6,000 games: the turn was
# trained while the second SPRT went on past its first cap, and its later games go to the next
# turn). LAST (device seed 2804, whose final 60,000 positions every run holds out) still
# ends every list, so the losses read on gen2ft2's yardstick (K 132.2). NET is gen2ft3 (the
# second try's file), INIT its float model (the run's checkpoint.ckpt: its last epoch, 4, is the
# one it kept). The rests were cut at 13:21 while seeds 2726/2727 went on to 13:48: their last
# 31,316 and 32,625 positions (after snap + rest, 322,179 and 330,251) belong to the next turn.
. /work/campaign/gen2ft3-files.sh
NET=$C/nnue/gen2ft3/q-all-lr5e-5-e4/augur.nnue
INIT=$C/nnue/gen2ft3/q-all-lr5e-5-e4/checkpoint.ckpt
mkdir -p $C/nnue/gen2ft4 && cd $C/nnue/gen2ft4
for s in 2726 2727; do
  rest_after $C/nnue/gen2ft3/snap-$s.bin $C/datagen/selfplay-0d278eb-gen2ft2-h2-seed$s.bin rest-$s.bin
done
NEW4="$PWD/rest-2726.bin $PWD/rest-2727.bin
  $V/sprt-0d278eb-gen2ft3-all-lr1e-4-e6-vs-gen2ft2-n10000.bin
  $V/sprt-0d278eb-gen2ft3-q-all-lr5e-5-e4-vs-gen2ft2-n10000-g1-6000.bin"
