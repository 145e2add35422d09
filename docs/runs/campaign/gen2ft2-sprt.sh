#!/bin/bash
# gen2ft2's SPRT (from 28 Nov, tenth session): gen2ft1 fine-tuned again on 4.41 M positions
# (gen2ft2-variants.sh: the 'all' data, lr 0.0001, 6 epochs, kept epoch 4, the lowest
# validation loss of the four runs) against gen2ft1 (the embedded network, as EvalFile on
# 0d278eb's PGO build), [0, 5] at 10k nodes, UHO sample, seed 90, cap 6,000. Its own session
# at nice 0, so it gets about a core: its games are the engine's self-play and become training
# data through `convert`, so the core is not taken from the data campaign. Resumes from its PGN.
cd /work/campaign
V=${1:-all-lr1e-4-e6}
B=/work/campaign/bin/augur-0d278eb-pgo3
bin/augur-lab-1f3fcb5 match \
  --engine name=gen2ft2-$V,cmd=$B,option.EvalFile=/work/campaign/nnue/gen2ft2/$V/augur.nnue \
  --engine name=gen2ft1,cmd=$B,option.EvalFile=/work/campaign/nets/gen2ft1-1p77m-h256.nnue \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 90 \
  --tc nodes=10000 --concurrency 1 --games 6000 --sprt 0,5 \
  --change "gen2ft1 fine-tuned again on 4.41 M positions (train --init, $V)" --commit 0d278eb \
  --pgn sprt/gen2ft2-$V.pgn >> logs/sprt-gen2ft2-$V.log 2>&1
