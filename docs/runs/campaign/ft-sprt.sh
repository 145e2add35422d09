#!/bin/bash
# The fine-tuned network's SPRT (from 28 Nov, ninth session): generation 2 fine-tuned on the
# 1.77 M positions made since the lost machine (nnue/ft2, variant $1, chosen by the two
# 400-game screens of nnue/ft2/screen.sh) against generation 2 (embedded in 0d278eb), [0, 5]
# at 10k nodes, UHO sample, seed 88, cap 4,000, nice 19. Resumes from its PGN.
cd /work/campaign
V=${1:?variant}
B=/work/campaign/bin/augur-0d278eb-pgo3
nice -n 19 bin/augur-lab-1f3fcb5 match \
  --engine name=ft-$V,cmd=$B,option.EvalFile=/work/campaign/nnue/ft2/$V/augur.nnue \
  --engine name=gen2,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 88 \
  --tc nodes=10000 --concurrency 1 --games 4000 --sprt 0,5 \
  --change "generation 2 fine-tuned on its own self-play (train --init, $V)" --commit 0d278eb \
  --pgn sprt/ft-gen2-$V.pgn >> logs/sprt-ft-gen2-$V.log 2>&1
