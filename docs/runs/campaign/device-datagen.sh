#!/bin/bash
# A datagen burst on the device machine (28 Nov, tenth session), run through the device tool
# from /work/main with `carry: [".devcarry"]`, where .devcarry (ignored through
# .git/info/exclude) held bin/augur-lab-0d278eb-pgo3, an x86-64-v2 lab as a fallback and
# nets/gen2ft1-1p77m-h256.nnue. Two processes of 8 threads (each file stays under the 16 MiB a
# returned file may have), killed at the time limit: the journal vouches for every complete
# game, and running the same command here with --positions 1 cuts a torn tail
# ("already N games; nothing to do"). Usage there: device-datagen.sh SEED_A SEED_B SECONDS.
# From the eleventh session .devcarry holds the embedded network instead, TAG its name
# (default gen2ft3, the embedded network since 01960e4: nets/gen2ft3-4p98m-h256.nnue, SHA-256
# de267f0a...; gen2ft2 was nets/gen2ft2-4p41m-h256.nnue, SHA-256 99c5437c...).
TAG=${TAG:-gen2ft3}; NET=${NET:-gen2ft3-4p98m-h256.nnue}
D=.devcarry; B=$D/augur-lab-0d278eb-pgo3
$B --version >/dev/null 2>&1 || B=$D/augur-lab-v2
for s in "$1" "$2"; do
  (timeout -s KILL "$3" $B datagen --out $OUT/selfplay-0d278eb-$TAG-h2-seed$s.bin \
     --positions 490000 --threads 8 --seed $s --hash 2 --eval nnue \
     --eval-file $D/$NET > $OUT/log-$s.txt 2>&1; echo "seed $s rc $?") &
done
wait
