#!/bin/bash
# The campaign's datagen, one core at nice 19. Since 27 Nov 02:00 the engine is 4dce66a
# (StagedQuiets on, bench 1512853; its PGO x86-64-v3 build), a new file and seed: seed 2702's
# file (e3809f7) is finished as it stands.
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-4dce66a-seed2703" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-4dce66a-pgo3 datagen --out datagen/selfplay-4dce66a-seed2703.bin \
    --positions 30000000 --threads 1 --seed 2703 >> logs/datagen-2703.log 2>&1 &
