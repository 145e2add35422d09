#!/bin/bash
# First minute of every session: datagen on one core, core B's queue on the other; each step
# resumes where its files end.
cd /work/campaign
./start-datagen.sh
# Core B's queue leads its own process group (setsid), so that timed.sh stops the whole queue,
# its shells and engines included, with one kill of the group in logs/core-b.pid.
if ! pgrep -f core-b.sh >/dev/null; then
  setsid ./core-b.sh > logs/core-b.log 2>&1 < /dev/null &
  echo $! > logs/core-b.pid
fi
sleep 1; pgrep -af "augur-lab" | cut -c1-120
