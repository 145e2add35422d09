#!/bin/bash
# Issue 27 section 3: SPSA of the evaluation-scale margins with generation 1 as the evaluation
# (7fbeb95, Eval=nnue: the embedded network), 2,000 iterations of one game pair at 10,000 nodes,
# one core beside the datagen. Resumes from spsa/nnue-margins/state.toml; a finished run
# returns at once. The tuned values (the spsa's own `name, value` lines, ints rounded as the
# engine rounds them) go to spsa/nnue-margins.tuned only when the run has finished.
cd /work/campaign
nice -n 10 bin/augur-lab-7fbeb95 spsa \
  --engine name=augur,cmd=/work/campaign/bin/augur-7fbeb95,option.Threads=1,option.Hash=16,option.Eval=nnue \
  --params nnue-margins.spsa --iterations 2000 --pairs 1 --seed 27 --tc nodes=10000 --concurrency 1 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --out spsa/nnue-margins \
  > spsa/nnue-margins.tuned.part 2>> logs/margins-spsa.log &&
  mv spsa/nnue-margins.tuned.part spsa/nnue-margins.tuned
