#!/bin/bash
# After a lost machine (it happened between the fourth and fifth sessions of 27 November):
# rebuilds /work/campaign from the repository alone, then `start.sh` goes on. The binaries are
# built from their commits (e3809f7 rebuilt this way gave the very binary the scaling study
# recorded, SHA-256 637ad23e...); the networks come from docs/runs/nnue-checkpoints; the
# scaling study's record and the unfinished matches' PGNs from docs/runs/campaign(/state),
# where save-state.sh puts them at the end of every session. The datagen files are not in
# the repository (too large): datagen starts a new file.
# Usage: docs/runs/campaign/rebuild.sh (from the repository's root, /work/main)
set -e
REPO=$(pwd)
C=/work/campaign
mkdir -p $C/{bin,datagen,nets,scaling,logs,timed,soak,sprt,grids,spsa,ladder}
cp docs/runs/campaign/*.sh docs/runs/campaign/*.spsa $C/
cp docs/runs/nnue-checkpoints/ckpt-6p99m-h256.nnue $C/nets/gen2-6p99m-h256.nnue
# generation 2 fine-tuned (ninth session): ft-sprt.sh reads it where the trainer wrote it
cp docs/runs/nnue-checkpoints/ckpt-gen2ft1-1p77m-h256.nnue $C/nets/gen2ft1-1p77m-h256.nnue
mkdir -p $C/nnue/ft2/lr5e-5-wd0.01
cp docs/runs/nnue-checkpoints/ckpt-gen2ft1-1p77m-h256.nnue $C/nnue/ft2/lr5e-5-wd0.01/augur.nnue
# gen2ft2 (tenth session): datagen's network from 08:22; gen2ft2-sprt.sh reads it where the
# trainer wrote it
cp docs/runs/nnue-checkpoints/ckpt-gen2ft2-4p41m-h256.nnue $C/nets/gen2ft2-4p41m-h256.nnue
mkdir -p $C/nnue/gen2ft2/all-lr1e-4-e6
cp docs/runs/nnue-checkpoints/ckpt-gen2ft2-4p41m-h256.nnue $C/nnue/gen2ft2/all-lr1e-4-e6/augur.nnue
# gen2ft3 (twelfth session): datagen's network from 13:50; gen2ft4's SPRT and trainings read it
# and its float model (the next turn's --init) where the trainer wrote them
cp docs/runs/nnue-checkpoints/ckpt-gen2ft3-4p98m-h256.nnue $C/nets/gen2ft3-4p98m-h256.nnue
mkdir -p $C/nnue/gen2ft3/q-all-lr5e-5-e4
cp docs/runs/nnue-checkpoints/ckpt-gen2ft3-4p98m-h256.nnue $C/nnue/gen2ft3/q-all-lr5e-5-e4/augur.nnue
xz -dc docs/runs/nnue-checkpoints/float-gen2ft3-4p98m-h256.ckpt.xz > $C/nnue/gen2ft3/q-all-lr5e-5-e4/checkpoint.ckpt
# [RUN=R] candidate TURN FILE [FLOAT]: a fine-tune turn's network FILE
# (docs/runs/nnue-checkpoints) where the turn's SPRT script reads it,
# $C/nnue/TURN/R/augur.nnue (R all-lr5e-5-e4 unless given), and FLOAT's float model unpacked
# beside it as best.ckpt (the next turn's --init); with CHOSEN=1 also R into the turn's
# `chosen`, for the turns from gen2ft15 on that train several runs and name the kept one there
# (verdict.sh's run_of)
candidate() {
  local d=$C/nnue/$1/${RUN:-all-lr5e-5-e4}
  mkdir -p $d
  cp docs/runs/nnue-checkpoints/$2 $d/augur.nnue
  [ -z "$3" ] || xz -dc docs/runs/nnue-checkpoints/$3 > $d/best.ckpt
  [ -z "$CHOSEN" ] || echo "${RUN:-all-lr5e-5-e4}" > $C/nnue/$1/chosen
}
# gen2ft4's candidate (twelfth session; gen2ft4-sprt.sh)
candidate gen2ft4 cand-gen2ft4-all-lr5e-5-e4.nnue
# gen2ft5 (thirteenth session; embedded from the fifteenth): where gen2ft6-sprt.sh read it, and
# datagen's network from the fifteenth session
candidate gen2ft5 ckpt-gen2ft5-7p19m-h256.nnue
cp docs/runs/nnue-checkpoints/ckpt-gen2ft5-7p19m-h256.nnue $C/nets/gen2ft5-7p19m-h256.nnue
# gen2ft6's and gen2ft7's candidates with their float models (fourteenth and fifteenth
# sessions; gen2ft7.sh starts from gen2ft6's, gen2ft7-sprt.sh plays gen2ft7's)
candidate gen2ft6 cand-gen2ft6-all-lr5e-5-e3.nnue float-cand-gen2ft6-all-lr5e-5-e3.ckpt.xz
# (gen2ft7 embedded from the seventeenth session: its files renamed ckpt-gen2ft7-2p49m-h256*)
candidate gen2ft7 ckpt-gen2ft7-2p49m-h256.nnue float-gen2ft7-2p49m-h256.ckpt.xz
# gen2ft7, datagen's network from the sixteenth session (start-datagen.sh)
cp docs/runs/nnue-checkpoints/ckpt-gen2ft7-2p49m-h256.nnue $C/nets/gen2ft7-2p49m-h256.nnue
# gen2ft8's candidates (sixteenth session; gen2ft8-sprt.sh plays the 8-bucket one)
RUN=all-b8-lr5e-5-e4 candidate gen2ft8 cand-gen2ft8-all-b8-lr5e-5-e4.nnue float-cand-gen2ft8-all-b8-lr5e-5-e4.ckpt.xz
RUN=all-b1-lr5e-5-e4 candidate gen2ft8 cand-gen2ft8-all-b1-lr5e-5-e4.nnue
# gen2ft9's candidate and float model (seventeenth session; its SPRT never began, gen2ft11's
# took its place)
RUN=all-b8-lr5e-5-e4 candidate gen2ft9 cand-gen2ft9-all-b8-lr5e-5-e3.nnue float-cand-gen2ft9-all-b8-lr5e-5-e3.ckpt.xz
# gen2ft10's candidate and float model (eighteenth session; not queued for an SPRT: its held-out
# loss was not below gen2ft9's; the next turn may start from its float model)
RUN=all-b8-lr5e-5-e4 candidate gen2ft10 cand-gen2ft10-all-b8-lr5e-5-e4.nnue float-cand-gen2ft10-all-b8-lr5e-5-e4.ckpt.xz
# gen2ft11 (twentieth session; gen2ft11-sprt.sh played it; embedded from the twenty-first
# session, its files renamed ckpt-gen2ft11-6p49m-h256*): where the turn wrote it (gen2ft12.sh
# starts from its float model), and datagen's network from the twenty-first session
RUN=all-b8-lr5e-5-e4 candidate gen2ft11 ckpt-gen2ft11-6p49m-h256.nnue float-gen2ft11-6p49m-h256.ckpt.xz
cp docs/runs/nnue-checkpoints/ckpt-gen2ft11-6p49m-h256.nnue $C/nets/gen2ft11-6p49m-h256.nnue
# gen2ft12 (twenty-first session; gen2ft12-sprt.sh played it; embedded from the twenty-third
# session, its files renamed ckpt-gen2ft12-7p61m-h256*): where the turn wrote it (gen2ft13.sh
# starts from its float model, gen2ft13-sprt.sh plays against it), and datagen's network from
# the twenty-third session
RUN=all-b8-lr5e-5-e4 candidate gen2ft12 ckpt-gen2ft12-7p61m-h256.nnue float-gen2ft12-7p61m-h256.ckpt.xz
cp docs/runs/nnue-checkpoints/ckpt-gen2ft12-7p61m-h256.nnue $C/nets/gen2ft12-7p61m-h256.nnue
# gen2ft13's candidate and float model (twenty-third session; gen2ft13-sprt.sh plays it; the
# turn kept epoch 1, but the run is named for its 4 epochs, as gen2ft13.sh wrote it)
RUN=all-b8-lr5e-5-e4 candidate gen2ft13 cand-gen2ft13-all-b8-lr5e-5-e1.nnue float-cand-gen2ft13-all-b8-lr5e-5-e1.ckpt.xz
# gen2ft14's candidate and float model (twenty-fourth session; gen2ft14-sprt.sh plays it against
# gen2ft12; the turn kept epoch 2, the run named for its 4 epochs, as gen2ft14.sh wrote it).
# gen2ft13's SPRT was stopped and closed by hand (state/finished.tsv keeps its closing row).
RUN=all-b8-lr5e-5-e4 candidate gen2ft14 cand-gen2ft14-all-b8-lr5e-5-e2.nnue float-cand-gen2ft14-all-b8-lr5e-5-e2.ckpt.xz
# gen2ft15's candidate and float model (twenty-seventh session; of the turn's three runs the one
# gen2ft15.sh chose, named in the folder's `chosen` (CHOSEN=1), which gen2ft15-sprt.sh and turn_init read)
RUN=all-b8-lr2.5e-5-e4 CHOSEN=1 candidate gen2ft15 cand-gen2ft15-all-b8-lr2.5e-5-e4.nnue float-cand-gen2ft15-all-b8-lr2.5e-5-e4.ckpt.xz
# gen2ft16's candidate and float model (thirtieth session; the run gen2ft16.sh chose, kept
# epoch 1; gen2ft16-sprt.sh plays it against gen2ft12, gen2ft15's SPRT having ended at its cap)
RUN=all-b8-lr2.5e-5-e4 CHOSEN=1 candidate gen2ft16 cand-gen2ft16-all-b8-lr2.5e-5-e4.nnue float-cand-gen2ft16-all-b8-lr2.5e-5-e4.ckpt.xz
# Finished campaigns that start.sh would otherwise begin again: the ladder with generation 2
# (sixth session, docs/ladder.md; the touch below) and the SPRTs that save-state.sh found
# finished (state/finished.tsv: the log's name and its verdict line, written back with the
# closing row's marker that start.sh looks for)
if [ -f docs/runs/campaign/state/finished.tsv ]; then
  while IFS=$'\t' read -r name verdict; do
    [ -f $C/logs/$name.log ] || printf '%s\nRow for docs/strength.md: restored by rebuild.sh (docs/strength.md has the row)\n' \
      "$verdict" > $C/logs/$name.log
  done < docs/runs/campaign/state/finished.tsv
fi
touch $C/ladder/done-f8eec28-v3
[ -f $C/scaling/scaling.csv ] || cp docs/runs/campaign/scaling.csv $C/scaling/scaling.csv
# The unfinished matches: each state file is the PGN's path under /work/campaign with '/'
# written as '__', compressed.
for f in docs/runs/campaign/state/*.pgn.xz; do
  [ -e "$f" ] || continue
  dest=$C/$(basename "$f" .xz | sed 's|__|/|g')
  mkdir -p "$(dirname "$dest")"
  [ -f "$dest" ] || xz -dc "$f" > "$dest"
done
# build COMMIT [SUFFIX RUSTFLAGS]: bin/augur-COMMIT[SUFFIX] and bin/augur-lab-COMMIT[SUFFIX].
# Without flags the build is the plain `cargo build --release` (the workspace's x86-64-v2 from
# .cargo/config.toml; RUSTFLAGS unset, since even an empty RUSTFLAGS replaces that file's).
build() {
  local c=$1 suffix=$2 flags=$3 wt=/work/b-$1 td=target
  [ -x $C/bin/augur-lab-$c$suffix ] && return 0
  [ -d $wt ] || git -C "$REPO" worktree add $wt $c
  if [ -n "$flags" ]; then
    td=target/b$suffix
    (cd $wt && RUSTFLAGS="$flags" nice -n 10 cargo build --release --target-dir $td)
  else
    (cd $wt && unset RUSTFLAGS && nice -n 10 cargo build --release)
  fi
  cp $wt/$td/release/augur $C/bin/augur-$c$suffix
  cp $wt/$td/release/augur-lab $C/bin/augur-lab-$c$suffix
}
# The order is what the running campaign needs first (twenty-second session, after the third
# loss): datagen's lab and the network SPRT's engine (703a642's x86-64-v3 build; fixed-node
# records and games are the same from its PGO build), the SPRTs' match runner (1f3fcb5, the
# resume fix), the scaling study's engine and lab (e3809f7, as built on 26 November).
# STAGE=datagen|sprt stops after that stage, so that start.sh's jobs can begin as their binaries
# appear. Not rebuilt after the third loss: the PGO builds (`pgo-gen2.sh 703a642
# $C/nets/gen2ft12-7p61m-h256.nnue` remakes datagen's: +5% positions per CPU-second on the HCE,
# docs/datagen.md, for about 50 CPU-minutes of both cores, which a session's datagen earns back
# only in some 18 hours; made again by hand in the twenty-fourth session, as the campaign has
# more hours than that ahead), and the engines of the technique SPRTs stopped in the twenty-second
# session (0d278eb-v3 for `Se`'s on the network engine, 43be651-v3 for LmrNoisy's). Finished
# campaigns' binaries (3d5cd0d-v3: the margins' SPRTs; 33bc0d9 and a13040e: the model's refits;
# f8eec28-v3: the ladder) are built from their commits with `build` when a rerun needs them.
build 703a642 -v3 "-C target-cpu=x86-64-v3"
[ "$STAGE" = datagen ] && exit 0
build 1f3fcb5
[ "$STAGE" = sprt ] && exit 0
build e3809f7
echo "rebuilt; now: cd $C && ./start.sh"
