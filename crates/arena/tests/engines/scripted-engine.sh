#!/usr/bin/env bash
# A stand-in UCI engine for the match-runner tests; it knows no chess.
# From the standard start position it shuffles a knight (White g1f3/f3g1,
# Black g8f6/f6g8), which is legal whatever the opponent does in the first
# moves. The first argument picks its misbehaviour on its third move:
#   shuffle  never misbehave (two shufflers draw by threefold repetition)
#   crash    exit without a reply
#   stall    never answer `go` (and ignore `stop`)
#   illegal  answer an illegal move
# The second argument is the score it reports (centipawns, default 0); the third, seconds it
# waits before each reply (default none), so that a game lasts long enough to be measured.
mode="${1:-shuffle}"
score="${2:-0}"
pause="${3:-}"
pos=""
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name scripted-$mode"; echo "option name Hash type spin default 1 min 1 max 16"; echo "uciok" ;;
        isready) echo "readyok" ;;
        position*) pos="$line" ;;
        go*)
            # The depth it reports is the limit of `go nodes N` or `go depth N` (1 otherwise), so
            # that a test can read from the PGN which limit each engine was given.
            depth=1
            if [[ "$line" =~ ^go\ nodes\ ([0-9]+) ]]; then depth="${BASH_REMATCH[1]}"; fi
            if [[ "$line" =~ ^go\ depth\ ([0-9]+) ]]; then depth="${BASH_REMATCH[1]}"; fi
            n=0
            if [[ "$pos" == *" moves "* ]]; then
                set -- ${pos#* moves }
                n=$#
            fi
            own=$((n / 2))
            if (( own >= 2 )); then
                case "$mode" in
                    crash) exit 3 ;;
                    stall) continue ;;
                    illegal) echo "bestmove e1e5"; continue ;;
                esac
            fi
            if (( n % 2 == 0 )); then
                if (( own % 2 == 0 )); then mv=g1f3; else mv=f3g1; fi
            else
                if (( own % 2 == 0 )); then mv=g8f6; else mv=f6g8; fi
            fi
            if [[ -n "$pause" ]]; then sleep "$pause"; fi
            echo "info depth $depth score cp $score nodes 1 pv $mv"
            echo "bestmove $mv"
            ;;
        quit) exit 0 ;;
    esac
done
