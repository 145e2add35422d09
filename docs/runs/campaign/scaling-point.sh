#!/bin/bash
# scaling-point.sh TECHNIQUE NODES GAMES LOG: one point of the scaling study, played beside
# core B's run of the same study (same binary, openings, seed and --out, so its row joins the
# same scaling.csv and core B finds the point played when it gets there), nice 19, appended to
# logs/LOG.log. Resumes from its PGN; a finished point returns at once.
cd /work/campaign
nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling \
  -t $1 --nodes $2 --games $3 >> logs/$4.log 2>&1
