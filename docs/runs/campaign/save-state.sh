#!/bin/bash
# The end of every session: what a lost machine must not take (rebuild.sh puts it back). The
# scaling study's record, and the PGNs of the matches still running or paused (an unfinished
# SPRT, ladder or the study's unfinished point), compressed, into docs/runs/campaign(/state).
# A finished match's PGN is not kept: its row in the docs is its record. Datagen files are not
# kept (too large; the networks trained on them are, in docs/runs/nnue-checkpoints).
# Usage: docs/runs/campaign/save-state.sh (from the repository's root), then commit.
set -e
S=docs/runs/campaign/state
C=/work/campaign
mkdir -p $S
# The new state is written into T and copied into place only at the end (a moment): a commit made
# while this runs (minutes: the charts, xz -9) then holds the old state or the new, never a
# half-written file (8f64085 took an empty finished.tsv that way, twenty-ninth session).
T=$(mktemp -d)
cp $C/scaling/scaling.csv docs/runs/campaign/scaling.csv
# The study's charts of its finished points (from 29 Nov, twenty-first session), into
# docs/runs/scaling-charts: rendered by the study's own command on a copy of its record, asking
# each technique (with the calibration, which its chart draws beside it) only for the controls
# where both are in scaling.csv, with their game counts, so no game is played and the running
# study's files are not touched (the command runs `augur bench` for the model's signature).
# The techniques are those the record has a point of.
R=$(mktemp -d)
cp -r $C/scaling/scaling.csv $C/scaling/provenance.toml $C/scaling/model $R/
mkdir -p docs/runs/scaling-charts
for t in $(awk -F, '!/^#/ && $1 != "technique" { print $1 }' $C/scaling/scaling.csv | sort -u); do
  mkdir -p $R/$t
  cp $C/scaling/$t/activity-* $R/$t/ 2>/dev/null || true
  # the controls where both t and the calibration are finished (every point of a control
  # plays one game count)
  points=$(awk -F, -v t=$t '$1 == "calibration" { c[$2] = 1 } $1 == t { n[$2] = $3 }
    END { for (k in n) if (k in c) print k, n[k] }' $C/scaling/scaling.csv | sort -n)
  [ -n "$points" ] || continue
  nice -n 19 $C/bin/augur-lab-e3809f7 scaling --engine $C/bin/augur-e3809f7 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --collect-epd /work/shared/data/positions/games-sample.epd --out $R \
    $( [ $t = calibration ] || echo -t calibration ) -t $t \
    --nodes $(echo "$points" | cut -d' ' -f1 | paste -sd,) \
    --games $(echo "$points" | cut -d' ' -f2 | paste -sd,) --quiet > $R/$t.log 2>&1 &&
    cp $R/$t.svg $R/$t.png docs/runs/scaling-charts/ ||
    { echo "no chart for $t:"; cat $R/$t.log; }
done
rm -rf $R
# PGN_PATH... relative to /work/campaign, each saved as its path with '/' written '__'
save() { for p in "$@"; do [ -s "$C/$p" ] && xz -9 -c "$C/$p" > "$T/${p//\//__}.xz"; done; return 0; }
# (from the twenty-seventh session) A finished match's games that no turn has converted yet are
# data still to come (the turns convert SPRT and study PGNs, snapshot.sh's snap_convert), so a
# PGN is kept while its match runs and also after, until the converted pieces
# datagen/converted/*TAG*-gFROM-N.bin reach its last game. `unconverted PGN TAG`: PGN (under
# $C) exists and its last game is beyond every piece of TAG (a decided SPRT's tag holds its
# stem; a study point's is scaling-e3809f7-T-nN).
unconverted() {
  [ -s "$C/$1" ] || return 1
  local games last
  games=$(grep -c '^\[Event ' "$C/$1")
  last=$(ls $C/datagen/converted/ 2>/dev/null | grep -- "$2" | sed -n 's/.*-g[0-9]*-\([0-9]*\)\.bin$/\1/p' | sort -n | tail -1)
  [ "${last:-0}" -lt "$games" ]
}
# the study's points not yet in its record, or not yet converted
for p in $(cd $C && ls scaling/*/nodes-*.pgn 2>/dev/null); do
  t=$(basename "$(dirname "$p")"); n=$(basename "$p" .pgn); n=${n#nodes-}
  if ! grep -q "^$t,$n," $C/scaling/scaling.csv || unconverted "$p" "scaling-e3809f7-$t-n$n-"; then save "$p"; fi
done
# the SPRTs: every log under logs/ without its closing row (verdict.sh's `decided`), or decided
# with games not yet converted, whose match writes sprt/STEM.pgn beside logs/sprt-STEM.log
# (net-sprt.sh, tech-sprt.sh; the one older pair with two names, se-gen2's log and se-f8eec28's
# PGN, is decided). A finished SPRT's figures are in docs/strength.md, and finished.tsv below
# keeps start.sh from playing it again after a loss; the ladders' and the study's records are
# their docs and scaling.csv.
. docs/runs/campaign/verdict.sh
for f in $C/logs/sprt-*.log; do
  stem=$(basename "$f" .log); stem=${stem#sprt-}
  if ! decided $stem || unconverted sprt/$stem.pgn "$stem-"; then save "sprt/$stem.pgn"; fi
done
# The finished SPRTs, each with its verdict line: rebuild.sh writes them back as logs, so that
# start.sh and the scripts that read a verdict (gen2ft6-sprt.sh) see them after a lost machine.
for f in $C/logs/sprt-*.log; do
  stem=$(basename "$f" .log); decided ${stem#sprt-} || continue
  printf '%s\t%s\n' "$(basename "$f" .log)" "$(grep '^SPRT ' "$f" | tail -1)"
done > $T/finished.tsv
rm -f $S/*.pgn.xz $S/finished.tsv && cp $T/* $S/ && rm -rf $T
ls -la $S
