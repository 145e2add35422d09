#!/bin/bash
# Core B's queue (from 27 Nov, fifth session: the machine was lost with every file of the
# campaign; e3809f7 rebuilt from its commit gives the same binary, SHA-256 637ad23e..., so the
# study resumes from its committed record, docs/runs/campaign/scaling.csv). The scaling study's
# remaining points (MPC at 10k, then 40k and 160k). Nice 19 within its own autogroup, whose
# share start.sh sets (background.sh; PRIO=0 from the sixteenth session). Each step resumes
# from its files; a finished one returns at once. (Until 27 Nov the queue also ran the network's
# first SPRT, the MPC grids and the margins' SPSA and SPRT: finished, or lost with the machine.)
cd /work/campaign
nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling >> logs/scaling.log 2>&1
# (Until the twenty-sixth session the queue went on to the paused `Se` SPRT at 10k, se-sprt.sh:
# its binary and PGN went with the lost machine, and `Se` passed at 40k and is on by default
# from 9df3354, strength.md; the queue ends with the study.)
