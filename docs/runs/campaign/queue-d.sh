#!/bin/bash
# Core D's queue (from 28 Nov, fourteenth session): techniques' SPRTs on the network engine,
# one after another, in datagen seed 2731's share of the cores (their games are data too);
# seed 2731 takes its share back when the queue is done. Each step resumes from its files.
cd /work/campaign
# the first session's own run of the correction history's SPRT (corrhist-sprt-gen2ft3.sh, the
# same command) ends by restarting seed 2731: wait for it, then take the share again
while pgrep -f corrhist-sprt-gen2ft3.sh >/dev/null; do sleep 60; done
pkill -f "datagen --out datagen/selfplay-43be651-gen2ft3-h2-seed2731.bin"
./tech-sprt.sh corrhist option.CorrHist=true 94 \
  "correction history (CorrHist) on the network engine (gen2ft3 embedded)"
# LmrNoisy was undecided on the HCE engine (+6.8 ± 10.2 nElo at 4,468 games)
./tech-sprt.sh lmrnoisy option.LmrNoisy=true 95 \
  "LMR for late captures that lose by exchange (LmrNoisy) on the network engine (gen2ft3 embedded)"
./start-datagen.sh
