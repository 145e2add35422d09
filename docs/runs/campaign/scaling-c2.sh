#!/bin/bash
# A second share of the scaling study (from 28 Nov, fifteenth session): the MPC point at 160k
# nodes, 1,100 games, played beside core B's run of the same study (same binary, openings, seed
# and --out, as scaling-c.sh played MPC at 40k; scaling-point.sh). Core B plays every technique at 40k before
# any at 160k, and MPC last at each control, so it reaches this point, its last, long after
# this run has finished it, and then finds its games played. Resumes from its PGN.
cd /work/campaign
# (not exec: start.sh finds it running by this script's name)
./scaling-point.sh mpc 160000 1100 scaling-c2
