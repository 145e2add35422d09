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
# the unfinished matches named in the session's scripts (edit as they change)
save sprt/se-f8eec28.pgn
# gen2ft4's SPRT (from the twelfth session)
save sprt/gen2ft4-all-lr5e-5-e4.pgn
# gen2ft5's SPRT (from the thirteenth session, once gen2ft4's has finished)
save sprt/gen2ft5-all-lr5e-5-e4.pgn
# (gen2ft3's second SPRT, sprt/gen2ft3-q-all-lr5e-5-e4.pgn, was decided in the twelfth session)
# (gen2ft3's first SPRT, sprt/gen2ft3-all-lr1e-4-e6.pgn, was decided in the eleventh session)
# (the fine-tune's SPRT, sprt/ft-gen2-lr5e-5-wd0.01.pgn, was decided in the ninth session)
# (gen2ft2's SPRT, sprt/gen2ft2-all-lr1e-4-e6.pgn, was decided in the tenth session)
# (the margins' SPRT, sprt/margins-gen2-3d5cd0d.pgn, ended at its 10,000 cap in the ninth session)
# (the ladder with generation 2 embedded, ladder.sh f8eec28-v3, was played to its end in the
# seventh session of 27 Nov: its rows in docs/strength.md are its record)
ls -la $S
