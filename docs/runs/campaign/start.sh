#!/bin/bash
# First minute of every session: datagen on one core, core B's queue on the other; each step
# resumes where its files end.
cd /work/campaign
./start-datagen.sh
pgrep -f core-b.sh >/dev/null || nohup ./core-b.sh > logs/core-b.log 2>&1 &
sleep 1; pgrep -af "augur-lab" | cut -c1-120
