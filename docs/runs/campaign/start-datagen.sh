#!/bin/bash
# The campaign's datagen, one core at nice 19. The machine was lost on 27 Nov between the fourth
# and fifth sessions (7.57 M positions with it; the committed networks survived), so the data
# starts again from generation 2 (the 6.99 M checkpoint's H = 256, committed as
# docs/runs/nnue-checkpoints/ckpt-6p99m-h256.nnue, SHA-256 b0a166e5...), the best engine so far,
# on 3d5cd0d's x86-64-v3 build, a new file and seed.
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-3d5cd0d-gen2-seed2720" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-3d5cd0d-v3 datagen --out datagen/selfplay-3d5cd0d-gen2-seed2720.bin \
    --positions 30000000 --threads 1 --seed 2720 \
    --eval nnue --eval-file /work/campaign/nets/gen2-6p99m-h256.nnue >> logs/datagen-2720.log 2>&1 &
