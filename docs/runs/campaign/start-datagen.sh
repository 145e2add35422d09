#!/bin/bash
# The campaign's datagen, one core at nice 19. The engine is generation 1 of the network (the
# 4.03 M checkpoint's H = 128, SPRT [0, 5] H1 at 10k nodes against the HCE: +74.5 +- 21.2
# nElo). Since 27 Nov (second session) on 7fbeb95's PGO x86-64-v3 build (the accumulator update
# with one loop per move shape: 9.4% fewer instructions a position, the same records); a new
# file and seed. Seed 2707's file (5833dc1) is finished as it stands.
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-7fbeb95-gen1-seed2708" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-7fbeb95-pgo3 datagen --out datagen/selfplay-7fbeb95-gen1-seed2708.bin \
    --positions 30000000 --threads 1 --seed 2708 \
    --eval nnue --eval-file /work/campaign/nets/gen1-4p03m-h128.nnue >> logs/datagen-2708.log 2>&1 &
