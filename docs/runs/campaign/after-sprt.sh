#!/bin/bash
# after-sprt.sh NAME SCRIPT [ARGS...]: within a session, runs SCRIPT as soon as the network SPRT
# NAME (net-sprt.sh's first argument, e.g. gen2ft5-all-lr5e-5-e4) has ended with its closing row;
# start.sh does the same at the start of later sessions. (The thirteenth session's
# after-gen2ft4.sh and the fourteenth's after-gen2ft5.sh were this with the names written in.)
cd /work/campaign
NAME=$1; shift
while pgrep -f "net-sprt.sh $NAME" >/dev/null; do sleep 60; done
. ./verdict.sh
decided $NAME && exec "$@"
