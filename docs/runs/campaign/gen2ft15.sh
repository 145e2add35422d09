#!/bin/bash
# gen2ft15, the fifteenth fine-tune turn (from 1 Dec, twenty-seventh session): the float model of
# the last network that passed its SPRT (gen2ft14's if its SPRT against gen2ft12 ended in H1,
# else gen2ft12's) fine-tuned on what the fourth lost machine left and what was made since
# (gen2ft15-files.sh). With no old data under it (gen2ft13's case, which played -12 nElo) the
# turn trains three runs and keeps the one with the lowest held-out loss on seed 2744, which
# nothing is trained on: FT9 as every turn since gen2ft9 (lr 5e-5, 4 epochs), half its learning
# rate, and FT9 for 2 epochs. Only a run below the start's own loss on that set goes to an SPRT
# (gen2ft13 was above it on an independent set and lost its games). Nice NICE (19 unless set).
set -e
. /work/campaign/verdict.sh
INIT=$(turn_init gen2ft14 gen2ft12)
. /work/campaign/gen2ft15-files.sh
FILES="$NEW15 $HELD"
train_on all-b8-lr5e-5-e4 "$FILES" --init $INIT $FT9
train_on all-b8-lr2.5e-5-e4 "$FILES" --init $INIT ${FT9/--lr 0.00005/--lr 0.000025}
train_on all-b8-lr5e-5-e2 "$FILES" --init $INIT ${FT9/--epochs 4/--epochs 2}
# The choice (snapshot.sh's choose_run, first written here): the lowest kept epoch's float loss
# against the start's float loss, `chosen` or `no-candidate`.
choose_run "all-b8-lr5e-5-e4 all-b8-lr2.5e-5-e4 all-b8-lr5e-5-e2"
