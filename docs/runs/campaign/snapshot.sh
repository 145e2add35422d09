#!/bin/bash
# Sourced by the training scripts' data files (gen2-files.sh, ft-files.sh, gen2ft2-files.sh,
# gen2ft3-files.sh):
# `journalled_snapshot LIVE OUT` copies a datagen file that datagen is still writing, cut at
# its last journalled game (the journal's second column is each game's positions, 32 bytes
# each), so that a training reads whole games only; an existing OUT is kept as it is.
journalled_snapshot() {
  [ -f "$2" ] && return 0
  local n
  n=$(awk 'NR > 1 { n += $2 } END { print n }' "$1.journal")
  head -c $(( n * 32 )) "$1" > "$2"
}
# `rest_after SNAP FILE OUT` writes what FILE holds beyond an earlier snapshot SNAP of it (the
# games a later turn has not trained on yet); an existing OUT is kept as it is.
rest_after() {
  [ -f "$3" ] && return 0
  tail -c +$(( $(stat -c %s "$1") + 1 )) "$2" > "$3"
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
