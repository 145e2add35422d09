#!/bin/bash
# First minute of every session (after a lost machine, docs/runs/campaign/rebuild.sh first):
# datagen (start-datagen.sh), then either the ladder (while it is unplayed) or, beside it,
# core B's queue, the study's second run and the undecided SPRTs, every background job through
# background.sh (nice 19 that holds across sessions). Each resumes where its files end.
# (Generation 2's timed SPRT, gen2-timed.sh, is decided; the network's 10+0.1 gate before it
# is gate-gen1.sh.)
cd /work/campaign
LADDER=f8eec28-v3
# Datagen's two seeds (start-datagen.sh). Core D's queue (queue-d.sh, from the fourteenth
# session: techniques' SPRTs on the network engine, CorrHist then LmrNoisy) took the second
# seed's share until the sixteenth session; since then its autogroup's nice 19 leaves it almost
# nothing, so both seeds run beside it, and it goes on until its last SPRT's log has its closing
# row (its own last step, start-datagen.sh, then finds both seeds running).
./start-datagen.sh
# decided, passed: an SPRT's outcome from its log (verdict.sh)
. ./verdict.sh
# The ladder with generation 2 embedded (from 27 Nov, sixth session) needs the machine to
# itself: while it is unplayed it goes first (it resumes from its PGNs, ends datagen, and
# runs this script again when it is done, with ladder/done-$LADDER written).
if [ ! -e ladder/done-$LADDER ]; then
  pgrep -f "ladder.sh" >/dev/null || setsid ./ladder.sh $LADDER > logs/ladder-run.log 2>&1 < /dev/null &
  exit 0
fi
# The shares (from 29 Nov, sixteenth session; background.sh): core B and the study's second run
# (scaling-c2.sh) at PRIO=0, datagen's two seeds and the network's SPRT at PRIO=3: a little
# over half the machine for the study (at nice 19 beside five jobs it had had a sixth), the
# rest for the data; queue C's and queue D's technique SPRTs at 19, nearly paused.
# Core B's queue leads its own process group (setsid), so that timed.sh or ladder.sh stops the
# whole queue, its shells and engines included, with one kill of the group in logs/core-b.pid.
if ! pgrep -f core-b.sh >/dev/null; then
  PRIO=0 setsid ./background.sh ./core-b.sh > logs/core-b.log 2>&1 < /dev/null &
  echo $! > logs/core-b.pid
fi
# (Core C's and core D's queues, queue-c.sh and queue-d.sh, are over: their last SPRTs, Se and
# LmrNoisy on the network engine at 10k, were stopped undecided in the twenty-second session and
# their logs carry a closing row; this script started each only while that row was missing.)
# The study's MPC point at 160k (scaling-c2.sh, from the fifteenth session), beside core B's
# 40k points; a finished point returns at once.
pgrep -f scaling-c2.sh >/dev/null || PRIO=0 setsid ./background.sh ./scaling-c2.sh > /dev/null 2>&1 < /dev/null &
# The SPRTs at PRIO=3: the network's turns, one after another, and a technique's on the network
# engine. `net_sprt STEM SCRIPT [AFTER [PRIO]]` starts SCRIPT (at PRIO, 3 unless given) unless logs/sprt-STEM.log has
# its closing row or it is running (as SCRIPT, or as the net-sprt.sh STEM it execs), and,
# with AFTER, only once AFTER's SPRT has its closing row (after-sprt.sh does the same within a
# session). A decided SPRT is not played again, also after a lost machine (rebuild.sh writes
# the finished logs back).
net_sprt() {
  decided $1 && return 0
  [ -z "$3" ] || decided $3 || return 0
  { pgrep -f "net-sprt.sh $1" || pgrep -f "$2"; } >/dev/null && return 0
  PRIO=${4:-3} setsid ./background.sh ./$2 > /dev/null 2>&1 < /dev/null &
}
# Decided, and so left out here (net_sprt returns at once for a decided SPRT; rebuild.sh writes
# the finished logs back after a lost machine): gen2ft3's second SPRT (H1, twelfth session),
# gen2ft4's (12,000-game cap, fourteenth), gen2ft5's (H1, fourteenth), gen2ft7's (H1,
# sixteenth), gen2ft11's (H1, twenty-first), gen2ft12's (H1, twenty-third), `Se`'s at 40k (H1,
# twentieth); stopped undecided: gen2ft6's (fifteenth, for gen2ft7's), gen2ft8's (LLR 0.66) and
# gen2ft13's (1,375 games, twenty-fourth, for gen2ft14's); ended undecided at its cap:
# gen2ft14's (12,000 games, twenty-seventh) and gen2ft15's (12,000 games, thirtieth: +4.9 ± 6.2
# nElo, LLR 1.17). A new turn's SPRT gets its line here, and the line
# goes when the SPRT is decided.
# gen2ft16's turn (from the twenty-ninth session): gen2ft16.sh at nice 0 in an autogroup of its
# own as soon as gen2ft15's SPRT has its closing row (after-sprt.sh; the turn starts from its
# winner), then its SPRT at PRIO=3; left alone once the turn has chosen (or found no candidate),
# when the line after it resumes the SPRT instead.
[ -e nnue/gen2ft16/chosen ] || [ -e nnue/gen2ft16/no-candidate ] || pgrep -f "gen2ft16.sh" >/dev/null ||
  NICE=0 setsid ./after-sprt.sh gen2ft15-$(run_of gen2ft15) bash -c \
    './gen2ft16.sh && PRIO=3 exec ./background.sh ./gen2ft16-sprt.sh' \
    >> logs/gen2ft16.log 2>&1 < /dev/null &
[ -e nnue/gen2ft16/chosen ] && net_sprt gen2ft16-$(run_of gen2ft16) gen2ft16-sprt.sh
# (the shipped ProbCut model's refits, refit-nnue.sh 33bc0d9 and a13040e, are written and
# shipped: 47fc344, 01250fb; refit-nnue.sh 01960e4 in a23afde; refit-nnue.sh 6cacdc3 in the
# fifteenth session; refit-nnue.sh 5c62928 in 72ac1dd, seventeenth session; refit-nnue.sh d6f1aef in
# 905518d, twenty-first session)
sleep 1; pgrep -af "augur-lab" | cut -c1-120
