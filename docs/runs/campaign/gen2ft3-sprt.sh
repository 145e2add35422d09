#!/bin/bash
# gen2ft3's SPRT (from 28 Nov, eleventh session): gen2ft2 fine-tuned again on 4.98 M positions
# (gen2ft3.sh: all the data, lr 0.0001, 6 epochs, kept epoch 6: validation loss 0.011361 ->
# 0.011308, the lowest of the three runs, which all came within 0.00005 of it) against gen2ft2
# (the embedded network, as EvalFile on 0d278eb's PGO build), [0, 5] at 10k nodes, UHO sample,
# seed 91, cap 6,000. Its own session at nice 0, as gen2ft2's: its games are the engine's
# self-play and become training data through `convert`. Resumes from its PGN.
cd /work/campaign
V=${1:-all-lr1e-4-e6}
B=/work/campaign/bin/augur-0d278eb-pgo3
bin/augur-lab-1f3fcb5 match \
  --engine name=gen2ft3-$V,cmd=$B,option.EvalFile=/work/campaign/nnue/gen2ft3/$V/augur.nnue \
  --engine name=gen2ft2,cmd=$B,option.EvalFile=/work/campaign/nets/gen2ft2-4p41m-h256.nnue \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 91 \
  --tc nodes=10000 --concurrency 1 --games 6000 --sprt 0,5 \
  --change "gen2ft2 fine-tuned again on 4.98 M positions (train --init, $V)" --commit 0d278eb \
  --pgn sprt/gen2ft3-$V.pgn >> logs/sprt-gen2ft3-$V.log 2>&1
