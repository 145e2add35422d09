#!/bin/bash
# after-gen2ft4.sh (thirteenth session): waits for gen2ft4's SPRT to end, then plays gen2ft5's
# (start.sh does the same at a session's start once gen2ft4's log has its closing row).
cd /work/campaign
while pgrep -f "net-sprt.sh gen2ft4" >/dev/null; do sleep 60; done
grep -q "Row for docs/strength.md" logs/sprt-gen2ft4-all-lr5e-5-e4.log && exec ./gen2ft5-sprt.sh
