#!/bin/bash
# First minute of every session (after a lost machine, docs/runs/campaign/rebuild.sh first):
# datagen on one core at nice 19, core B's queue (nice 19) beside
# it, and generation 2's timed SPRT at nice 0 (gen2-timed.sh: one game at a time; the scheduler
# gives it a core while the niced jobs share the other). Each resumes where its files end; a
# decided SPRT returns at once. (The network's 10+0.1 gate that came first until 27 Nov is
# played: gate-gen1.sh.)
cd /work/campaign
# The ladder with generation 2 embedded (from 27 Nov, sixth session) needs the machine to
# itself: while it is unplayed, it goes first (it resumes from its PGNs, pauses datagen, and
# runs this script again when it is done, with its marker file written).
if [ ! -e ladder/done-f8eec28-v3 ]; then
  ./start-datagen.sh
  pgrep -f "ladder.sh" >/dev/null || setsid ./ladder.sh f8eec28-v3 > logs/ladder-run.log 2>&1 < /dev/null &
  exit 0
fi
./start-datagen.sh
# Core B's queue leads its own process group (setsid), so that timed.sh or ladder.sh stops the
# whole queue, its shells and engines included, with one kill of the group in logs/core-b.pid.
if ! pgrep -f core-b.sh >/dev/null; then
  setsid ./core-b.sh > logs/core-b.log 2>&1 < /dev/null &
  echo $! > logs/core-b.pid
fi
pgrep -f gen2-timed.sh >/dev/null || setsid ./gen2-timed.sh > /dev/null 2>&1 < /dev/null &
# the margins' SPRT with generation 2 (nice 19, beside datagen and core B's queue; from 27 Nov,
# fifth session)
pgrep -f margins-sprt-gen2.sh >/dev/null || setsid ./margins-sprt-gen2.sh > /dev/null 2>&1 < /dev/null &
sleep 1; pgrep -af "augur-lab" | cut -c1-120
