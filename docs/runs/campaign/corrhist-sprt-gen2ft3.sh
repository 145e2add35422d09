#!/bin/bash
# Correction history on the network engine (from 28 Nov, fourteenth session). `CorrHist` failed
# its SPRT on the HCE engine (H0, −14.2 ± 15.6 at 10k nodes, 2025 code of 0015274); the
# correction history is among the largest gains of the network engines we read (it repairs an
# evaluation's repeated errors per pawn structure, which a network trained on a few million
# positions has many of), so it is judged again on today's default engine: 43be651's x86-64-v3
# build (gen2ft3 embedded, Bench: 1351287), CorrHist=true against off, [0, 10] at 10,000 nodes,
# UHO sample, seed 94, capped at 8,000 games, nice 19 in its own autogroup. It takes datagen
# seed 2731's share of the cores while it runs: its games become training data too (about 70
# scored positions a second of a core, more than datagen's 55). Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-43be651-v3
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-43be651-v3 match --engine name=corrhist,cmd=$B,option.CorrHist=true \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 94 \
  --tc nodes=10000 --concurrency 1 --games 8000 --sprt 0,10 $ADJ \
  --change "correction history (CorrHist) on the network engine (gen2ft3 embedded)" --commit 43be651 \
  --pgn sprt/corrhist-43be651.pgn >> logs/sprt-corrhist-43be651.log 2>&1
# when it ends, seed 2731 takes its share back
./start-datagen.sh
