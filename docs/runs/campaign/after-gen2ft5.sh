#!/bin/bash
# In the fourteenth session: gen2ft6's SPRT as soon as gen2ft5's has ended (start.sh does the
# same at the start of later sessions).
cd /work/campaign
while pgrep -f "net-sprt.sh gen2ft5" >/dev/null; do sleep 60; done
grep -q "Row for docs/strength.md" logs/sprt-gen2ft5-all-lr5e-5-e4.log && exec ./gen2ft6-sprt.sh
