#!/bin/bash
# Singular extensions on today's engine (from 27 Nov, seventh session): the scaling study's 10k
# point gave +19.3 [+7.6, +31.1] on the HCE engine e3809f7, against the H0 of their SPRT on the
# old branch cd3b75b; se-sprt.sh's binary (dcc08c2) was lost with the machine. Before `Se` can
# be a default it passes its own SPRT on the engine of f8eec28 (generation 2 embedded, the
# default since 27 Nov): [0, 10] at 10,000 nodes, UHO sample, seed 74 (not the study's),
# capped at 8,000 games; nice 19. Resumes from its PGN. Its first 106 games were played by
# f8eec28's x86-64-v3 build; from 28 Nov (eighth session) the engine is 0d278eb's PGO build, the
# same search and network (Bench: 1497098) with the TT prefetch, which plays the same fixed-node
# games about 14% sooner (the same info lines and moves, checked on three positions with Se on).
cd /work/campaign
B=/work/campaign/bin/augur-0d278eb-pgo3
# after a lost machine, until the PGO build is made again: the plain x86-64-v3 build of the
# same commit (the same moves at fixed nodes; only the speed differs)
[ -x $B ] || B=/work/campaign/bin/augur-0d278eb-v3
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
nice -n 19 bin/augur-lab-1f3fcb5 match --engine name=se,cmd=$B,option.Se=true \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 74 \
  --tc nodes=10000 --concurrency 1 --games 8000 --sprt 0,10 $ADJ \
  --change "singular extensions (Se) on the network engine" --commit f8eec28 \
  --pgn sprt/se-f8eec28.pgn >> logs/sprt-se-gen2.log 2>&1
