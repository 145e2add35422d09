#!/bin/bash
# Core C's queue (from 27 Nov, seventh session): the margins' SPRT with generation 2 until it
# decides or reaches its cap, then the singular extensions' SPRT on the network engine. Both
# nice 19 beside datagen and core B's scaling study; each resumes from its PGN, a finished one
# returns at once.
cd /work/campaign
./margins-sprt-gen2.sh
./se-sprt-gen2.sh
