#!/bin/bash
cd /work/campaign
pgrep -f "datagen --out datagen/selfplay-e3809f7-seed2702" >/dev/null || \
  nohup nice -n 19 bin/augur-lab-e3809f7-pgo3 datagen --out datagen/selfplay-e3809f7-seed2702.bin \
    --positions 30000000 --threads 1 --seed 2702 >> logs/datagen-2702b.log 2>&1 &
