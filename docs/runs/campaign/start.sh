#!/bin/bash
# First minute of every session (after a lost machine, docs/runs/campaign/rebuild.sh first):
# datagen on one core at nice 19, then either the ladder (while it is unplayed) or core B's
# queue and the margins' SPRT (both nice 19) beside it. Each resumes where its files end.
# (Generation 2's timed SPRT, gen2-timed.sh, is decided; the network's 10+0.1 gate before it
# is gate-gen1.sh.)
cd /work/campaign
LADDER=f8eec28-v3
./start-datagen.sh
# The ladder with generation 2 embedded (from 27 Nov, sixth session) needs the machine to
# itself: while it is unplayed it goes first (it resumes from its PGNs, pauses datagen, and
# runs this script again when it is done, with ladder/done-$LADDER written).
if [ ! -e ladder/done-$LADDER ]; then
  pgrep -f "ladder.sh" >/dev/null || setsid ./ladder.sh $LADDER > logs/ladder-run.log 2>&1 < /dev/null &
  exit 0
fi
# Core B's queue leads its own process group (setsid), so that timed.sh or ladder.sh stops the
# whole queue, its shells and engines included, with one kill of the group in logs/core-b.pid.
# Each queue's session has an autogroup at nice 19 (start-datagen.sh says why): a timed match
# started in a session of its own (nice 0) then has the CPU it asks for.
if ! pgrep -f core-b.sh >/dev/null; then
  setsid bash -c 'echo 19 > /proc/self/autogroup; exec ./core-b.sh' > logs/core-b.log 2>&1 < /dev/null &
  echo $! > logs/core-b.pid
fi
# core C: the margins' SPRT with generation 2 (from 27 Nov, fifth session), then the singular
# extensions' SPRT on the network engine (queue-c.sh, from the seventh session)
pgrep -f queue-c.sh >/dev/null || \
  setsid bash -c 'echo 19 > /proc/self/autogroup; exec ./queue-c.sh' > /dev/null 2>&1 < /dev/null &
sleep 1; pgrep -af "augur-lab" | cut -c1-120
