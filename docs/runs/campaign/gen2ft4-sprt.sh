#!/bin/bash
# gen2ft4's SPRT (from 28 Nov, twelfth session): gen2ft3 fine-tuned again (gen2ft4.sh; V names
# the run, default all-lr5e-5-e4: lr 0.00005, 4 epochs, kept epoch 2 by the written network's
# held-out loss, 0.011310 -> 0.011276) against gen2ft3 (the embedded network), seed 92; the
# settings: net-sprt.sh, cap 12,000 games (GAMES).
V=${1:-all-lr5e-5-e4}
GAMES=${GAMES:-12000} exec /work/campaign/net-sprt.sh gen2ft4-$V gen2ft4-$V /work/campaign/nnue/gen2ft4/$V/augur.nnue \
  gen2ft3 /work/campaign/nets/gen2ft3-4p98m-h256.nnue 92 \
  "gen2ft3 fine-tuned again on 6.19 M positions (train --init of its float model, $V)"
