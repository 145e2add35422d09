#!/bin/bash
# A datagen burst on the device machine, run through the device tool from /work/main with
# `carry: [".devcarry"]`, where .devcarry (ignored through .git/info/exclude) holds the lab
# binary BIN and the network NET. Two processes of 8 threads (each file stays under the 16 MiB a
# returned file may have: 32 bytes a position), killed at the time limit: the journal vouches
# for every complete game, and running the same command here with --positions 1 cuts a torn
# tail ("already N games; nothing to do"). Usage there: device-datagen.sh SEED_A SEED_B SECONDS.
# History: 28 Nov (tenth session) gen2ft1 on 0d278eb's PGO build, seeds 2801-2804; from the
# 24th session (30 Nov) gen2ft12 (nets/gen2ft12-7p61m-h256.nnue) on the campaign's datagen
# binary 703a642-v3, seeds from 2805.
TAG=${TAG:-gen2ft12}; NET=${NET:-gen2ft12-7p61m-h256.nnue}; BIN=${BIN:-augur-lab-703a642-v3}
D=.devcarry; B=$D/$BIN; V=${BIN#augur-lab-}; V=${V%%-*}
for s in "$1" "$2"; do
  (timeout -s KILL "$3" $B datagen --out $OUT/selfplay-$V-$TAG-h2-seed$s.bin \
     --positions 490000 --threads 8 --seed $s --hash 2 --eval nnue \
     --eval-file $D/$NET > $OUT/log-$s.txt 2>&1; echo "seed $s rc $?") &
done
wait
ls -la $OUT
