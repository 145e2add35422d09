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
echo "init $INIT" >> totals.txt
FILES="$NEW15 $HELD"
train_on all-b8-lr5e-5-e4 "$FILES" --init $INIT $FT9
train_on all-b8-lr2.5e-5-e4 "$FILES" --init $INIT ${FT9/--lr 0.00005/--lr 0.000025}
train_on all-b8-lr5e-5-e2 "$FILES" --init $INIT ${FT9/--epochs 4/--epochs 2}
# The choice: the run whose kept epoch has the lowest held-out loss as a float model, written to
# `chosen` for the SPRT (gen2ft15-sprt.sh) and the next turn's start (verdict.sh's turn_init)
# only when it is below the start's own loss, the "(initial ...)" of the runs' logs, which is
# the start's float model's; otherwise `no-candidate`. Float against float: a written network
# carries its rounding (gen2ft12's written file scores 0.009744 on seed 2744, its float model
# 0.009687), so the written losses of loss.csv set against the initial one would ask a run to
# beat its start by its own rounding too (the first choice, at 20:48, did that and chose none).
kept_float() {
  local e
  e=$(sed -n 's/^keeping epoch \([0-9]*\).*/\1/p' $1.log | tail -1)
  sed -n "s/^epoch *$e: .*(float \([0-9.]*\),.*/\1/p" $1.log | tail -1
}
rm -f no-candidate
best=$(for r in all-b8-lr5e-5-e4 all-b8-lr2.5e-5-e4 all-b8-lr5e-5-e2; do
  echo "$(kept_float $r) $r"
done | sort -g | head -1)
initial=$(sed -n 's/.*(initial \([0-9.]*\)).*/\1/p' all-b8-lr5e-5-e4.log | tail -1)
echo "best float $best initial $initial" >> totals.txt
if awk -v b="${best% *}" -v i="$initial" 'BEGIN { exit !(b < i) }'; then
  echo "${best#* }" > chosen
else
  echo "$best against the start's $initial: not below it" > no-candidate
fi
