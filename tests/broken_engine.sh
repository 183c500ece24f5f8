#!/usr/bin/env bash
# A deliberately broken UGI engine for the match runner's tests. It plays legal moves (asking
# `magpie bestmove`, found in $MAGPIE) for its first AFTER moves of each game, then misbehaves:
#   crash    exits
#   hang     stops answering
#   illegal  plays d4 (a centre square, never empty)
#   badpass  passes although it has moves
#   garbage  answers "bestmove xyzzy"
#   noise    prints lines that mean nothing, then a legal move (not a fault)
#   slow     thinks far longer than its time, then answers a legal move
# Usage: broken_engine.sh MODE [AFTER]
mode=${1:?mode}
after=${2:-2}
moves_made=0
fen=""
moves=""
legal_move() {
    local args=(bestmove --depth 1 --moves "$moves")
    [ -n "$fen" ] && args+=(--fen "$fen")
    "$MAGPIE" "${args[@]}" | cut -d' ' -f1
}
while IFS= read -r line; do
    set -- $line
    case "$1" in
        ugi) echo "id name broken-$mode"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        uginewgame) moves_made=0 ;;
        position)
            fen=""; moves=""
            shift
            if [ "$1" = "fen" ]; then fen="$2 $3"; shift 3; else shift; fi
            [ "${1:-}" = "moves" ] && { shift; moves="$*"; }
            ;;
        go)
            moves_made=$((moves_made + 1))
            if [ "$moves_made" -le "$after" ] || [ "$mode" = "noise" ]; then
                [ "$mode" = "noise" ] && { echo "hello there"; echo "info nonsense 12"; echo "bestmoves are overrated"; }
                echo "bestmove $(legal_move)"
                continue
            fi
            case "$mode" in
                crash) exit 3 ;;
                hang) sleep 3600 ;;
                illegal) echo "bestmove d4" ;;
                badpass) echo "bestmove pass" ;;
                garbage) echo "bestmove xyzzy" ;;
                slow) sleep 2; echo "bestmove $(legal_move)" ;;
            esac
            ;;
        quit) exit 0 ;;
    esac
done
