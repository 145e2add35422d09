#!/bin/bash
# The campaign's datagen, one core at nice 19. Since 27 Nov 05:16 the engine is generation 1 of
# the network (the 4.03 M checkpoint's H = 128, SPRT [0, 5] H1 at 10k nodes against the HCE:
# +74.5 +- 21.2 nElo), on 5833dc1's PGO x86-64-v3 build; a new file and seed. Seed 2703's file
# (HCE, 4dce66a) is finished as it stands, like 2702's (e3809f7).
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-5833dc1-gen1-seed2707" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-5833dc1-pgo3 datagen --out datagen/selfplay-5833dc1-gen1-seed2707.bin \
    --positions 30000000 --threads 1 --seed 2707 \
    --eval nnue --eval-file /work/campaign/nets/gen1-4p03m-h128.nnue >> logs/datagen-2707.log 2>&1 &
