#!/bin/bash
# Core C's queue (from 27 Nov, seventh session): the margins' SPRT with generation 2 (ended at
# its 10,000 cap in the ninth session); then (from 28 Nov, ninth session) the scaling study's MPC point
# at 40k nodes (scaling-c.sh); then the singular extensions' SPRT on the network engine. All
# nice 19 beside datagen and core B's scaling study; each resumes from its files, a finished
# one returns at once.
cd /work/campaign
./margins-sprt-gen2.sh
./scaling-c.sh
./se-sprt-gen2.sh
