#!/bin/bash
# First minute of every session: both campaigns resume where their files end.
cd /work/campaign
./start-datagen.sh
pgrep -f "augur-lab-e3809f7 scaling" >/dev/null || \
  nohup nice -n 10 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --collect-epd /work/shared/data/positions/games-sample.epd --out scaling >> logs/scaling.log 2>&1 &
sleep 1; pgrep -af "augur-lab" | cut -c1-120
