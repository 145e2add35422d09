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
rm -f $S/*.pgn.xz
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
save() { for p in "$@"; do [ -s "$C/$p" ] && xz -9 -c "$C/$p" > "$S/${p//\//__}.xz"; done; return 0; }
# the study's points not yet in its record
for p in $(cd $C && ls scaling/*/nodes-*.pgn 2>/dev/null); do
  t=$(basename "$(dirname "$p")"); n=$(basename "$p" .pgn); n=${n#nodes-}
  grep -q "^$t,$n," $C/scaling/scaling.csv || save "$p"
done
# the unfinished matches named in the session's scripts (edit as they change): an SPRT only
# while its log has no closing row (a finished one's figures are in docs/strength.md, and
# finished.tsv below keeps start.sh from playing it again after a loss)
. docs/runs/campaign/verdict.sh
unfinished() { decided $1 || save "sprt/$2.pgn"; }
unfinished se-gen2 se-f8eec28
unfinished gen2ft5-all-lr5e-5-e4 gen2ft5-all-lr5e-5-e4
unfinished lmrnoisy-43be651 lmrnoisy-43be651
unfinished gen2ft7-all-lr5e-5-e4 gen2ft7-all-lr5e-5-e4
unfinished gen2ft8-all-b8-lr5e-5-e4 gen2ft8-all-b8-lr5e-5-e4
unfinished gen2ft11-all-b8-lr5e-5-e4 gen2ft11-all-b8-lr5e-5-e4
unfinished gen2ft12-all-b8-lr5e-5-e4 gen2ft12-all-b8-lr5e-5-e4
unfinished gen2ft13-all-b8-lr5e-5-e4 gen2ft13-all-b8-lr5e-5-e4
unfinished se-40k-0d278eb se-40k-0d278eb
# (gen2ft6's SPRT was stopped undecided at 3,258 games in the fifteenth session, superseded by
# gen2ft7's; its games are converted into datagen/converted)
# (gen2ft4's SPRT ended at its 12,000 cap and the correction history's SPRT with H0 in the
# fourteenth session)
# (gen2ft3's second SPRT, sprt/gen2ft3-q-all-lr5e-5-e4.pgn, was decided in the twelfth session)
# (gen2ft3's first SPRT, sprt/gen2ft3-all-lr1e-4-e6.pgn, was decided in the eleventh session)
# (the fine-tune's SPRT, sprt/ft-gen2-lr5e-5-wd0.01.pgn, was decided in the ninth session)
# (gen2ft2's SPRT, sprt/gen2ft2-all-lr1e-4-e6.pgn, was decided in the tenth session)
# (the margins' SPRT, sprt/margins-gen2-3d5cd0d.pgn, ended at its 10,000 cap in the ninth session)
# (the ladder with generation 2 embedded, ladder.sh f8eec28-v3, was played to its end in the
# seventh session of 27 Nov: its rows in docs/strength.md are its record)
# The finished SPRTs, each with its verdict line: rebuild.sh writes them back as logs, so that
# start.sh and the scripts that read a verdict (gen2ft6-sprt.sh) see them after a lost machine.
for f in $C/logs/sprt-*.log; do
  decided "$(basename "$f" .log | sed 's/^sprt-//')" || continue
  printf '%s\t%s\n' "$(basename "$f" .log)" "$(grep '^SPRT ' "$f" | tail -1)"
done > $S/finished.tsv
ls -la $S
