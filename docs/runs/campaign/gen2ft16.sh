#!/bin/bash
# gen2ft16, the sixteenth fine-tune turn (from 1 Dec, twenty-eighth session): the float model of
# the last network that passed its SPRT (gen2ft15's if its SPRT against gen2ft12 ended in H1,
# else gen2ft12's) fine-tuned on what was made since the fifth lost machine and the matches'
# games since gen2ft15's cut (gen2ft16-files.sh). Three runs, the one with the lowest held-out
# float loss on seed 2744 kept (gen2ft15.sh's choice): in gen2ft15's turn FT9's learning rate
# (5e-5) took the network above its start at every epoch and half of it came below, so this
# turn halves it once more: lr 2.5e-5 for 4 epochs (gen2ft15's chosen run), lr 1.25e-5 for 4,
# and lr 2.5e-5 for 2. Only a run below the start's own float loss goes to an SPRT.
# Nice NICE (19 unless set).
set -e
. /work/campaign/verdict.sh
INIT=$(turn_init gen2ft15 gen2ft12)
. /work/campaign/gen2ft16-files.sh
FILES="$NEW16 $HELD"
HALF=${FT9/--lr 0.00005/--lr 0.000025}
RUNS="all-b8-lr2.5e-5-e4 all-b8-lr1.25e-5-e4 all-b8-lr2.5e-5-e2"
train_on all-b8-lr2.5e-5-e4 "$FILES" --init $INIT $HALF
train_on all-b8-lr1.25e-5-e4 "$FILES" --init $INIT ${FT9/--lr 0.00005/--lr 0.0000125}
train_on all-b8-lr2.5e-5-e2 "$FILES" --init $INIT ${HALF/--epochs 4/--epochs 2}
# The choice, as gen2ft15's (snapshot.sh's choose_run): the kept epoch's float loss against the
# start's float loss, `chosen` or `no-candidate`.
choose_run "$RUNS"
