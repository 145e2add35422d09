#!/bin/bash
# Generation 2 fine-tuned on its own self-play (from 28 Nov, ninth session). Generation 2 was
# trained on 6.99 M positions that were lost with the machine; the data made since (1.8 M,
# mostly generation 2's own self-play at 5,000 nodes) is not yet enough to train a successor
# from scratch, but fine-tuning kept what the lost data taught before (generation 4 in
# docs/nnue.md: +44.5 Elo over its parent). The data and the shared settings: ft-files.sh.
# This first run: lr 0.001, weight decay 0.3, 6 epochs (the from-scratch recipe's; it undid
# the network, docs/nnue.md), then an SPRT [0, 5] against generation 2 (embedded) at 10k
# nodes, UHO sample, seed 86, capped at 3,000 games: stopped at 175 games. Resumable: a
# finished step is skipped, the SPRT resumes from its PGN.
set -e
. /work/campaign/ft-files.sh
ft_train ft --lr 0.001 --weight-decay 0.3 --epochs 6
B=$C/bin/augur-0d278eb-pgo3
nice -n 19 $C/bin/augur-lab-1f3fcb5 match \
  --engine name=gen2-ft,cmd=$B,option.EvalFile=$PWD/ft/augur.nnue \
  --engine name=gen2,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 86 \
  --tc nodes=10000 --concurrency 1 --games 3000 --sprt 0,5 \
  --change "generation 2 fine-tuned on 1.8 M positions of its own self-play" --commit 0d278eb \
  --pgn $C/sprt/ft-gen2-0d278eb.pgn >> $C/logs/sprt-ft-gen2.log 2>&1
