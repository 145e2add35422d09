#!/bin/bash
# Issue 27 section 3, played again after the lost machine (the first run, generation 1 on
# 7fbeb95, seed 28, was lost at 2,138 games, +9.9 +- 14.7 nElo): the margins the SPSA tuned with
# generation 1 (margins-spsa.sh; its values in docs/strength.md) against the untuned, both
# sides with generation 2 (EvalFile), which is the default once its timed SPRT passes (the
# branch gen2-embed). SPRT [0, 5] at 10,000 nodes, UHO sample, seed 29, capped at 6,000
# games; nice 19, sharing a core with datagen and the scaling study. Resumes from its PGN.
# At the cap (27 Nov, seventh session) it stood at LLR 2.45, +12.4 +- 8.8 nElo, no decision: the
# SPRT goes on to its decision (its error rates are those of the untruncated test; the cap was
# a budget), cap 10,000, with the runner of 1f3fcb5 (the resume fix; the same schedule).
cd /work/campaign
B=/work/campaign/bin/augur-3d5cd0d-v3
NET=/work/campaign/nets/gen2-6p99m-h256.nnue
T="option.RfpMargin=70,option.FutilityBase=103,option.FutilityMargin=86,option.SeePruneQuiet=50,option.SeePruneNoisy=18,option.SfpcMargin=214,option.SfpcImproving=48,option.NmpEvalDivisor=195,option.AspirationWindow=16"
nice -n 19 bin/augur-lab-1f3fcb5 match \
  --engine name=margins-tuned,cmd=$B,option.EvalFile=$NET,$T \
  --engine name=margins-default,cmd=$B,option.EvalFile=$NET \
  --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 29 \
  --tc nodes=10000 --concurrency 1 --games 10000 --sprt 0,5 \
  --change "the margins re-tuned with the network (generation 1's SPSA), both sides generation 2" --commit 3d5cd0d \
  --pgn sprt/margins-gen2-3d5cd0d.pgn >> logs/margins-sprt-gen2.log 2>&1
