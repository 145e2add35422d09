#!/bin/bash
# Issue 28 section 2: the MPC threshold grid on the UHO book (the scaling study's), one core.
#  a) 03c6cf0 (the third grid's engine, same search as today, bench 1394691, the OLD model
#     fitted on 3cde330) at 5k nodes: the third grid's engine on the UHO book;
#  b) dcc08c2 (same search, the FRESH model fitted on 88857b3) at 5k: the model's effect alone;
#  c) dcc08c2 at 20k nodes: the fresh model deeper.
# Each resumes from its folder (grid.csv); run it in place of the scaling study.
cd /work/campaign; mkdir -p grids
OPEN=/work/shared/data/openings/UHO_4060_v4-sample10k.epd
L=bin/augur-lab-dcc08c2
g() { nice -n 10 $L grid --engine $1 --tc nodes=$2 --games 200 --concurrency 1 \
        --openings $OPEN --out $3 --quiet >> logs/grids.log 2>&1; }
g /work/campaign/bin/augur-03c6cf0 5000 grids/uho-03c6cf0-n5000
g /work/campaign/bin/augur-dcc08c2 5000 grids/uho-dcc08c2-n5000
g /work/campaign/bin/augur-dcc08c2 20000 grids/uho-dcc08c2-n20000
