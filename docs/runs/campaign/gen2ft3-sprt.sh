#!/bin/bash
# gen2ft3's SPRT (from 28 Nov, eleventh session): gen2ft2 fine-tuned again on 4.98 M positions
# (gen2ft3.sh: all the data, lr 0.0001, 6 epochs, kept epoch 6: validation loss 0.011361 ->
# 0.011308, the lowest of the three runs, which all came within 0.00005 of it) against gen2ft2
# (the embedded network), seed 91; the settings: net-sprt.sh.
V=${1:-all-lr1e-4-e6}
exec /work/campaign/net-sprt.sh gen2ft3-$V gen2ft3-$V /work/campaign/nnue/gen2ft3/$V/augur.nnue \
  gen2ft2 /work/campaign/nets/gen2ft2-4p41m-h256.nnue 91 \
  "gen2ft2 fine-tuned again on 4.98 M positions (train --init, $V)"
