#!/bin/bash
# Core B's queue (from 27 Nov, fifth session: the machine was lost with every file of the
# campaign; e3809f7 rebuilt from its commit gives the same binary, SHA-256 637ad23e..., so the
# study resumes from its committed record, docs/runs/campaign/scaling.csv). The scaling study's
# remaining points. Nice 19 within its own autogroup, whose share start.sh sets (background.sh;
# PRIO=0 from the sixteenth session). Each step resumes from its files; a finished one returns
# at once. (Until 27 Nov the queue also ran the network's first SPRT, the MPC grids and the
# margins' SPSA and SPRT: finished, or lost with the machine.)
cd /work/campaign
study() {
  nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --collect-epd /work/shared/data/positions/games-sample.epd --out scaling "$@" >> logs/scaling.log 2>&1
}
# From the twenty-eighth session (1 Dec, 22:40) the queue leaves `Se` to scaling-c2.sh, which
# plays it at 160k beside the seed-004 point here instead of after it (the study's last two
# points, about 5 and 10 hours of one share, in 10 rather than 15). First calibration, seed 004
# and ProbCut, which needs the model: after a lost machine this fits it first, which the second
# run's points wait for (scaling-point.sh); the MPC points are played, or are scaling-c2.sh's.
study -t calibration -t seed004 -t probcut
# Then the whole study, once scaling-c2.sh is over (every point found played: the study's
# tables and charts written from them all; a point still missing is played here).
while pgrep -f scaling-c2.sh >/dev/null; do sleep 300; done
study
# (Until the twenty-sixth session the queue went on to the paused `Se` SPRT at 10k, se-sprt.sh:
# its binary and PGN went with the lost machine, and `Se` passed at 40k and is on by default
# from 9df3354, strength.md; the queue ends with the study.)
