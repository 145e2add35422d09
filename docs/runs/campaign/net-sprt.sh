#!/bin/bash
# One fine-tune turn's SPRT (the gen2ft2 and gen2ft3 turns, 28 Nov): `net-sprt.sh STEM NAME NET
# BASE BASENET SEED CHANGE` plays NAME (EvalFile NET) against BASE (EvalFile BASENET) on
# 0d278eb's PGO build, [0, 5] at 10k nodes, UHO sample, cap 6,000 (GAMES= raises it: gen2ft3 q-all-lr5e-5-e4 ended its 6,000 undecided at LLR 2.08 and went on to 12,000, 28 Nov twelfth session), in its own session at nice 0:
# its games are the engine's self-play and become training data through `convert`, so the core
# is not taken from the data campaign. PGN sprt/STEM.pgn, log logs/sprt-STEM.log; resumes from
# the PGN.
# The engine is COMMIT's (0d278eb unless set; from the twenty-first session gen2ft12's SPRT
# plays 703a642, main's search with `Se` on, the default since 9df3354).
cd /work/campaign
# Both networks must exist: a missing EvalFile would leave that side on the embedded network,
# and the SPRT would measure something else. (start.sh's net_sprt calls a turn's SPRT script
# each session; before the turn has written its network it returns here, nothing played.)
for net in "$3" "$5"; do [ -f "$net" ] || { echo "net-sprt.sh $1: no network $net yet"; exit 0; }; done
COMMIT=${COMMIT:-0d278eb}
B=/work/campaign/bin/augur-$COMMIT-pgo3
# after a lost machine, until the PGO build is made again: the plain x86-64-v3 build of the
# same commit (the same moves at fixed nodes; only the speed differs)
[ -x $B ] || B=/work/campaign/bin/augur-$COMMIT-v3
bin/augur-lab-1f3fcb5 match \
  --engine name=$2,cmd=$B,option.EvalFile=$3 --engine name=$4,cmd=$B,option.EvalFile=$5 \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed $6 \
  --tc nodes=10000 --concurrency 1 --games ${GAMES:-6000} --sprt 0,5 --change "$7" --commit $COMMIT \
  --pgn sprt/$1.pgn >> logs/sprt-$1.log 2>&1
