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
unfinished() { grep -q "Row for docs/strength.md" "$C/logs/sprt-$1.log" 2>/dev/null || save "sprt/$2.pgn"; }
unfinished se-gen2 se-f8eec28
unfinished gen2ft5-all-lr5e-5-e4 gen2ft5-all-lr5e-5-e4
unfinished lmrnoisy-43be651 lmrnoisy-43be651
unfinished gen2ft7-all-lr5e-5-e4 gen2ft7-all-lr5e-5-e4
unfinished gen2ft8-all-b8-lr5e-5-e4 gen2ft8-all-b8-lr5e-5-e4
unfinished gen2ft11-all-b8-lr5e-5-e4 gen2ft11-all-b8-lr5e-5-e4
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
  grep -q "Row for docs/strength.md" "$f" || continue
  printf '%s\t%s\n' "$(basename "$f" .log)" "$(grep '^SPRT ' "$f" | tail -1)"
done > $S/finished.tsv
ls -la $S
