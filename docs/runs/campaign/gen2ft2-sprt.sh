#!/bin/bash
# gen2ft2's SPRT (from 28 Nov, tenth session): gen2ft1 fine-tuned again on 4.41 M positions
# (gen2ft2-variants.sh: the 'all' data, lr 0.0001, 6 epochs, kept epoch 4, the lowest
# validation loss of the four runs) against gen2ft1 (the embedded network), seed 90; the
# settings: net-sprt.sh.
V=${1:-all-lr1e-4-e6}
exec /work/campaign/net-sprt.sh gen2ft2-$V gen2ft2-$V /work/campaign/nnue/gen2ft2/$V/augur.nnue \
  gen2ft1 /work/campaign/nets/gen2ft1-1p77m-h256.nnue 90 \
  "gen2ft1 fine-tuned again on 4.41 M positions (train --init, $V)"
