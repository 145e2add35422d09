#!/bin/bash
# Sourced by the training scripts' data files (gen2-files.sh, ft-files.sh, gen2ft2-files.sh,
# gen2ft3-files.sh, and those after them):
# `journalled_snapshot LIVE OUT` copies a datagen file that datagen is still writing, cut at
# its last journalled game (the journal's second column is each game's positions, 32 bytes
# each), so that a training reads whole games only; an existing OUT is kept as it is.
journalled_snapshot() {
  [ -f "$2" ] && return 0
  local n
  n=$(awk 'NR > 1 { n += $2 } END { print n }' "$1.journal")
  head -c $(( n * 32 )) "$1" > "$2"
}
# `rest_after "SNAP..." FILE OUT` writes what FILE holds beyond its earlier pieces SNAP... (a
# snapshot, or a snapshot and the rests cut after it, whose sizes add up: the games a later
# turn has not trained on yet); an existing OUT is kept as it is.
rest_after() {
  [ -f "$3" ] && return 0
  tail -c +$(( $(cat $1 | wc -c) + 1 )) "$2" > "$3"
}
# `journalled_rest LIVE PREV S`, in a turn's folder: the live datagen file LIVE cut at its last
# journalled game (full-S.bin), and what it holds beyond PREV, the previous turn's piece of the
# same file (its snap-S.bin or full-S.bin), as rest-S.bin; prints rest-S.bin's path. PREV `-`:
# a file begun since the previous turn, all of it new, so the path printed is full-S.bin's.
# Existing files are kept as they are.
journalled_rest() {
  journalled_snapshot "$1" full-$3.bin
  if [ "$2" = - ]; then echo "$PWD/full-$3.bin"; return 0; fi
  rest_after "$2" full-$3.bin rest-$3.bin
  echo "$PWD/rest-$3.bin"
}
# `pgn_snapshot LIVE OUT [FROM]` copies a match PGN, finished or still being written, from its
# game FROM (1 unless given) to its last complete game: the last one is kept only if its
# movetext ends with its `[Result]` (a half-written game does not), so a finished match keeps
# all its games. An existing OUT is kept as it is.
pgn_snapshot() {
  [ -f "$2" ] && return 0
  python3 - "$1" "$2" "${3:-1}" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.M)]
first = int(sys.argv[3])
if starts:
    last = text[starts[-1]:]
    result = re.search(r'^\[Result "([^"]+)"\]', last, re.M)
    if result and last.rstrip().endswith(result.group(1)):
        starts.append(len(text))
out = text[starts[first - 1]:starts[-1]] if len(starts) > first else ""
open(sys.argv[2], "w", encoding="utf-8").write(out)
PY
}
# `snap_convert LIVE TAG [FROM]` (with LAB and V set): the games FROM (1 unless given) to the
# last complete one of the match PGN LIVE, converted into $V/TAG-gFROM-N.bin (N its last game);
# prints that file's path. The next turn converts from N+1. Existing files are kept as they are.
snap_convert() {
  local from=${3:-1} snap n out
  snap=$2-snap.pgn
  [ "$from" = 1 ] || snap=$2-g$from-snap.pgn
  pgn_snapshot $1 $snap $from
  n=$(( from - 1 + $(grep -c '^\[Event ' $snap) ))
  out=$V/$2-g$from-$n.bin
  [ -f $out ] || $LAB convert $snap --out $out > convert-$2-g$from.log 2>&1
  echo $out
}
# `turn_snapshots PREVDIR PREVTAG "PREVSEEDS" LIVETAG "LIVESEEDS"`, in a turn's folder: the rest
# of the previous turn's live files (selfplay-0d278eb-PREVTAG-h2-seedS.bin beyond PREVDIR/snap-S.
# bin) as rest-S.bin, and snapshots of this turn's live files (LIVETAG) as snap-S.bin.
turn_snapshots() {
  local s
  for s in $3; do
    rest_after "$1/snap-$s.bin" "$C/datagen/selfplay-0d278eb-$2-h2-seed$s.bin" "rest-$s.bin"
  done
  for s in $5; do
    journalled_snapshot "$C/datagen/selfplay-0d278eb-$4-h2-seed$s.bin" "snap-$s.bin"
  done
}
# train_on NAME FILES ARGS...: the turns' training command (sourced by the gen2ftN-files.sh
# scripts; LAB at the call, else DEFAULT_LAB): the last 60,000 positions of FILES held out, the shared settings, the
# run in folder NAME, skipped once its network exists. Nice NICE (19 unless set).
train_on() {
  local name=$1 files=$2; shift 2
  local total=$(( $(cat $files | wc -c) / 32 ))
  local val=$(python3 -c "print(60000/$total)")
  echo "$name total $total validation $val" >> totals.txt
  [ -f $name/augur.nnue ] || nice -n ${NICE:-19} ${LAB:-${DEFAULT_LAB:?set LAB, the lab that trains}} train $files \
    --validation $val --validation-k 132.2 --hidden 256 --mirror --keep-best --batch 4096 \
    --threads 1 --quiet --out $name "$@" > $name.log 2>&1
}
# FT9, the settings of the 8-bucket fine-tune turns from gen2ft9 on (with --init): lr 0.00005,
# cosine, 4 epochs, weight decay 0.01, --rounding best.
FT9="--output-buckets 8 --schedule cosine --weight-decay 0.01 --rounding best --lr 0.00005 --epochs 4"
# `held_out SNAP HELD [HEAD]`: SNAP (a turn's cut of a datagen file) split into its last 60,000
# positions, the held-out set HELD that train_on's list ends with, and the rest, HEAD, which is
# trained on; without HEAD the rest is not written (a seed held out whole, nothing of it trained
# on: gen2ft14's device seed 2808). Existing files are kept as they are.
held_out() {
  [ -f "$2" ] || tail -c $(( 60000 * 32 )) "$1" > "$2"
  [ -z "$3" ] || [ -f "$3" ] || head -c $(( $(wc -c < "$1") - 60000 * 32 )) "$1" > "$3"
}
# `turn_new "DATAGEN" "PGNS"`, in a turn's folder (LAB and V set; from 29 Nov, twenty-first
# session, for gen2ft12 and the turns after it): what was made since the previous turn's cut,
# one path a line. DATAGEN is a table of live datagen files (rows: LIVE, PREV, S): each cut at
# its last journalled game as full-S.bin, and its part beyond PREV (the previous turn's piece of
# the same file; `-` for a file begun since, whose whole is new) as rest-S.bin (journalled_rest).
# PGNS is a table
# of match PGNs (rows: PGN under $C, tag, first game), each converted from its first game
# (snap_convert); a PGN not yet begun is passed over. The tables are read on descriptor 3, so
# that nothing the conversions run can read their rest.
turn_new() {
  local live prev s pgn tag from
  while read -r live prev s <&3; do
    if [ -n "$live" ]; then journalled_rest "$live" "$prev" $s; fi
  done 3<<< "$1"
  while read -r pgn tag from <&3; do
    if [ -n "$pgn" ] && [ -f $C/$pgn ]; then snap_convert $C/$pgn $tag $from; fi
  done 3<<< "$2"
}
# `held_whole FILE`: waits until the held-out seed's datagen FILE is whole (its process ended
# and 60,000 positions in it), since held_out cuts its last 60,000 (from gen2ft15's turn).
held_whole() {
  while pgrep -f "datagen --out datagen/$(basename $1)" >/dev/null ||
    [ $(( $(wc -c < $1) / 32 )) -lt 60000 ]; do sleep 60; done
}
# `choose_run "RUNS"`, in a turn's folder after its trainings (from gen2ft15's turn): the run
# whose kept epoch has the lowest held-out loss as a float model, written to `chosen` (the
# turn's SPRT and verdict.sh's turn_init read it) only when it is below the start's own float
# loss, the "(initial ...)" of the first run's log; otherwise `no-candidate` says why. Float
# against float: a written network carries its rounding (gen2ft12's written file scores
# 0.009744 on seed 2744, its float model 0.009687), so a written loss set against the initial
# float one would ask a run to beat its start by its own rounding too (gen2ft15's first choice
# did that and chose none).
kept_float() {
  local e
  e=$(sed -n 's/^keeping epoch \([0-9]*\).*/\1/p' $1.log | tail -1)
  sed -n "s/^epoch *$e: .*(float \([0-9.]*\),.*/\1/p" $1.log | tail -1
}
choose_run() {
  local r best initial
  rm -f no-candidate chosen
  best=$(for r in $1; do echo "$(kept_float $r) $r"; done | sort -g | head -1)
  initial=$(sed -n 's/.*(initial \([0-9.]*\)).*/\1/p' ${1%% *}.log | tail -1)
  echo "best float $best initial $initial" >> totals.txt
  if awk -v b="${best% *}" -v i="$initial" 'BEGIN { exit !(b < i) }'; then
    echo "${best#* }" > chosen
  else
    echo "$best against the start's $initial: not below it" > no-candidate
  fi
}
# `turn_begin TURN` (from gen2ft16's turn; C set): the turn's folder $C/nnue/TURN made and
# entered, and HELD, its held-out file there, cut from seed 2744 once that seed is whole
# (held_whole) and only if it is the very set gen2ft15 was measured on (SHA-256 b65d6d81...;
# the fifth lost machine took the first file and start-datagen.sh made it again), so that every
# turn's losses compare. INIT, when set (the turn's start, turn_init), goes to totals.txt.
turn_begin() {
  local h=$C/datagen/selfplay-703a642-gen2ft12-h2-seed2744.bin
  mkdir -p $C/nnue/$1 && cd $C/nnue/$1 || return 1
  HELD=$PWD/heldout-$1.bin
  [ -z "$INIT" ] || echo "init $INIT" >> totals.txt
  held_whole $h
  sha256sum $h | grep -q '^b65d6d81' ||
    { echo "seed 2744 is not the held-out set gen2ft15 was measured on: $(sha256sum $h)" >&2; return 1; }
  held_out $h $HELD
}
