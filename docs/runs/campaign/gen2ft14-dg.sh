#!/bin/bash
# gen2ft14's datagen-only variant (30 Nov, twenty-fourth session): the turn's run without the
# converted match games (UHO openings: about half of gen2ft13's data and 28% of gen2ft14's,
# where the earlier turns had them as a small part of millions of datagen positions): gen2ft12's
# float model fine-tuned with FT9 on the datagen files of gen2ft14's data alone (seeds 2738,
# 2739, 2740/2741 to 00:53, the device machine's 2805-2807), held out on the same 60,000
# positions of device seed 2808. Run in $C/nnue/gen2ft14 as dg-b8-lr5e-5-e4. Nice NICE.
set -e
C=/work/campaign
. $C/snapshot.sh
LAB=$C/bin/augur-lab-703a642-v3
cd $C/nnue/gen2ft14
G13=$C/nnue/gen2ft13; D=$C/datagen/device/selfplay-703a642-gen2ft12-h2-seed
DG="$G13/full-2738.bin $G13/full-2739.bin $PWD/full-2740.bin $PWD/full-2741.bin ${D}2805.bin ${D}2806.bin ${D}2807.bin"
train_on dg-b8-lr5e-5-e4 "$DG $PWD/heldout-gen2ft14.bin" \
  --init $C/nnue/gen2ft12/all-b8-lr5e-5-e4/best.ckpt $FT9
