#!/bin/bash
# Does datagen's hash table size change its labels' quality? (28 Nov, eighth session.) Datagen
# with --hash 2 makes a position with about 25% less CPU than with --hash 16 (the default; four
# processes' tables share the 32 MiB L3). The labels are the searches' scores at 5,000 soft
# nodes, so the question is whether a 2 MiB table searches as well as 16 MiB at that size:
# 1,000 games (500 pairs) at 5,000 nodes a move, generation 2's engine (0d278eb's PGO build),
# Hash 2 against Hash 16, UHO sample, seed 75. Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-0d278eb-pgo3
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-1f3fcb5 match --engine name=hash2,cmd=$B,option.Hash=2 \
  --engine name=hash16,cmd=$B,option.Hash=16 --each option.Threads=1 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 75 \
  --tc nodes=5000 --concurrency 1 --games 1000 $ADJ \
  --change "datagen's hash table: 2 MiB against 16 MiB at 5,000 nodes" --commit 0d278eb \
  --pgn sprt/hash2-vs-16-n5000.pgn >> logs/hash-match.log 2>&1
