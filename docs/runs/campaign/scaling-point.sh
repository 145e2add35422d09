#!/bin/bash
# scaling-point.sh TECHNIQUE NODES GAMES LOG: one point of the scaling study, played beside
# core B's run of the same study (same binary, openings, seed and --out, so its row joins the
# same scaling.csv and core B finds the point played when it gets there), nice 19, appended to
# logs/LOG.log. Resumes from its PGN; a finished point returns at once. After a lost machine
# core B's run fits the ProbCut-family model first (about 16 minutes); a second run collecting
# into scaling/model at the same time would interleave the records of its CSV (it happened in the
# twenty-second session), so a point waits for that fit. CONC (1 unless set) games at once:
# fixed-node games do not depend on timing, and each of the pool's workers has its own
# engines (`ucinewgame` before every game), so a point's games are the same at any
# concurrency; the thirtieth session ran `Se` at 160k with CONC=2 once the rest was done.
cd /work/campaign
while [ ! -f scaling/model/probcut_params.toml ]; do sleep 60; done
nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling \
  -t $1 --nodes $2 --games $3 --concurrency ${CONC:-1} >> logs/$4.log 2>&1
