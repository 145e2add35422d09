#!/bin/bash
# gen2ft5's SPRT (from 28 Nov, thirteenth session): gen2ft4's candidate fine-tuned again
# (gen2ft5.sh; V names the run, default all-lr5e-5-e4) against gen2ft3 (the embedded network),
# seed 93; the settings: net-sprt.sh, cap 12,000 games (GAMES).
V=${1:-all-lr5e-5-e4}
GAMES=${GAMES:-12000} exec /work/campaign/net-sprt.sh gen2ft5-$V gen2ft5-$V /work/campaign/nnue/gen2ft5/$V/augur.nnue \
  gen2ft3 /work/campaign/nets/gen2ft3-4p98m-h256.nnue 93 \
  "gen2ft4's candidate fine-tuned again on 7.19 M positions (train --init of its float model, $V, --rounding best)"
