#!/bin/bash
# First minute of every session: datagen on one core, core B's queue on the other; each step
# resumes where its files end. While the network's 10+0.1 gate (issue 27 section 3, 400 games
# one at a time on an otherwise idle machine) is unfinished, it comes first and the campaign
# starts when it ends.
cd /work/campaign
GATE=gate/gen1-7fbeb95-10+0.1.pgn
played=$(cat "$GATE" 2>/dev/null | grep -c '^\[Result')
campaign() {
  ./start-datagen.sh
  # Core B's queue leads its own process group (setsid), so that timed.sh stops the whole
  # queue, its shells and engines included, with one kill of the group in logs/core-b.pid.
  if ! pgrep -f core-b.sh >/dev/null; then
    setsid ./core-b.sh > logs/core-b.log 2>&1 < /dev/null &
    echo $! > logs/core-b.pid
  fi
}
if [ "$played" -lt 400 ]; then
  echo "the gate first ($played of 400 games played), then the campaign"
  export -f campaign
  setsid bash -c './gate-gen1.sh; campaign' > logs/start-after-gate.log 2>&1 < /dev/null &
else
  campaign
fi
sleep 1; pgrep -af "augur-lab" | cut -c1-120
