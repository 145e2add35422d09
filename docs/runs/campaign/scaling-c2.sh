#!/bin/bash
# A second share of the scaling study (from 28 Nov, fifteenth session): points at 160k nodes,
# 1,100 games each, played beside core B's run of the same study (same binary, openings, seed
# and --out, as scaling-c.sh played MPC at 40k; scaling-point.sh). From the sixteenth session
# ProbCut first (the pair that hardly acts at 10k: the point the issue asks most about), then MPC
# (begun in the fifteenth session, 28 games; its sign at 40k, -66 Elo, is already clear). Core B
# plays every technique at 40k before any at 160k, in the order calibration, seed004, se,
# probcut, mpc, so it reaches these two points, its last, long after this run has finished them
# (at about 34 CPU-seconds a 160k game, this run's two points are about 21 CPU-hours; core B
# has about 33 before them, its 40k points and three 160k ones, at the same share), and then
# finds their games played. Each resumes from its PGN (and waits for core B's model fit after
# a lost machine: scaling-point.sh). From the twenty-eighth session (1 Dec, 22:40) it plays
# `Se` at 160k too, after MPC, beside core B's seed-004 point (core-b.sh leaves `Se` to it and
# writes the whole study once this script is over).
cd /work/campaign
# (not exec: start.sh finds it running by this script's name)
./scaling-point.sh probcut 160000 1100 scaling-c2
./scaling-point.sh mpc 160000 1100 scaling-c2
./scaling-point.sh se 160000 1100 scaling-c2
