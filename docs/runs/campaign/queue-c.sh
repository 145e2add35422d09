#!/bin/bash
# Core C's queue (from 27 Nov, seventh session): the margins' SPRT with generation 2 until it
# decides or reaches its cap; then (from 28 Nov, ninth session) the scaling study's MPC point
# at 40k nodes (scaling-c.sh); then the singular extensions' SPRT on the network engine. All
# nice 19 beside datagen and core B's scaling study; each resumes from its files, a finished
# one returns at once.
cd /work/campaign
# The ninth session replaced this queue while the margins' match ran: wait for that match.
while pgrep -f "sprt/margins-gen2-3d5cd0d.pgn" > /dev/null; do sleep 60; done
./margins-sprt-gen2.sh
./scaling-c.sh
./se-sprt-gen2.sh
