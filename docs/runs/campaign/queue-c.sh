#!/bin/bash
# Core C's queue (from 27 Nov, seventh session): the margins' SPRT with generation 2 (ended at
# its 10,000 cap in the ninth session); then (from 28 Nov, ninth session) the scaling study's MPC point
# at 40k nodes (scaling-c.sh); then the singular extensions' SPRT on the network engine. All
# nice 19 beside datagen and core B's scaling study; each resumes from its files, a finished
# one returns at once. (The margins' SPRT left the queue in the fourteenth session: its log
# went with the second lost machine, and the script would have played it again from game 1.)
cd /work/campaign
# (scaling-c.sh's point waits for core B's model fit after a lost machine: scaling-point.sh)
./scaling-c.sh
./se-sprt-gen2.sh
