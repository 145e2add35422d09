#!/bin/bash
# tech-sprt.sh NAME OPTIONS SEED CHANGE: a technique's SPRT on the network engine (from 28 Nov,
# fourteenth session): 43be651's x86-64-v3 build (gen2ft3 embedded, Bench: 1351287), OPTIONS
# (comma-separated option.X=Y) against the defaults, [0, 10] at 10,000 nodes, UHO sample, seed
# SEED, capped at 8,000 games, the adjudication of the Se SPRTs. Its games become training data
# (about 70 scored positions a second of a core, more than datagen's 55). A finished SPRT (its
# log's closing row) returns at once; otherwise it resumes from its PGN.
cd /work/campaign
NAME=$1 OPTS=$2 SEED=$3 CHANGE=$4
LOG=logs/sprt-$NAME-43be651.log
. ./verdict.sh
decided $NAME-43be651 && exit 0
B=/work/campaign/bin/augur-43be651-v3
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-43be651-v3 match --engine name=$NAME,cmd=$B,$OPTS \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed $SEED \
  --tc nodes=10000 --concurrency 1 --games 8000 --sprt 0,10 $ADJ \
  --change "$CHANGE" --commit 43be651 --pgn sprt/$NAME-43be651.pgn >> $LOG 2>&1
