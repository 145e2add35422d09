#!/bin/bash
# Core D's queue (from 28 Nov, fourteenth session): techniques' SPRTs on the network engine,
# one after another, in the second datagen seed's share of the cores (their games are data
# too; 2731's, 2733's from the fifteenth session); it takes its share back when the queue is done. Each step resumes from its files.
cd /work/campaign
# (in the fourteenth session its first step ran as corrhist-sprt-gen2ft3.sh, the same command,
# before this queue existed; that session stopped datagen seed 2731 by hand for it)
./tech-sprt.sh corrhist option.CorrHist=true 94 \
  "correction history (CorrHist) on the network engine (gen2ft3 embedded)"
# LmrNoisy was undecided on the HCE engine (+6.8 ± 10.2 nElo at 4,468 games)
./tech-sprt.sh lmrnoisy option.LmrNoisy=true 95 \
  "LMR for late captures that lose by exchange (LmrNoisy) on the network engine (gen2ft3 embedded)"
./start-datagen.sh
