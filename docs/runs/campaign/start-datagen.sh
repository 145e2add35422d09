#!/bin/bash
# The campaign's datagen, one core at nice 19. The engine is generation 2 of the network (the
# 6.99 M checkpoint's H = 256: +60.5 [+33.3, +88.6] against generation 1 over 400 games at 10k
# nodes, then its SPRT [0, 5] at 10k nodes, gen2-sprt.sh), on 7fbeb95's PGO x86-64-v3 build
# (its search is the default's at fixed nodes; TimeMan only acts on the clock), a new file and
# seed. Generation 1's files end as they stand: seed 2708 at 666,623 positions.
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-7fbeb95-gen2-seed2713" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-7fbeb95-pgo3 datagen --out datagen/selfplay-7fbeb95-gen2-seed2713.bin \
    --positions 30000000 --threads 1 --seed 2713 \
    --eval nnue --eval-file /work/campaign/nets/gen2-6p99m-h256.nnue >> logs/datagen-2713.log 2>&1 &
