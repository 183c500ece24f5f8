#!/usr/bin/env bash
# A deliberately broken UGI engine for the match runner's tests. It plays legal moves for its
# first AFTER moves of each game, then misbehaves:
#   crash    exits with status 3, saying why on stderr
#   hang     stops answering (but reads on until its input ends)
#   illegal  plays d4 (a centre square, never empty)
#   badpass  passes although it has moves
#   garbage  answers "bestmove xyzzy"
#   noise    prints lines that mean nothing, then a legal move (not a fault)
#   slow     thinks far longer than its time (3 s), then answers a legal move
#   laggy    the other way round: for its first AFTER moves of each game it answers everything
#            about a move, `isready` included, 0.8 s late; then it plays normally
# Its legal moves come from one Magpie ($MAGPIE) started with it and searching to depth 1, not
# from a process per move, so that a loaded machine does not make it slow.
# Usage: broken_engine.sh MODE [AFTER]
mode=${1:?mode}
after=${2:-2}
moves_made=0
position="position startpos"
lag=0
coproc MAGPIE_ENGINE { exec "$MAGPIE" --protocol ugi; }
legal_move() {
    local reply
    echo "$position" >&"${MAGPIE_ENGINE[1]}"
    echo "go depth 1" >&"${MAGPIE_ENGINE[1]}"
    while IFS= read -r reply <&"${MAGPIE_ENGINE[0]}"; do
        case "$reply" in
            bestmove*) set -- $reply; echo "$2"; return ;;
        esac
    done
}
while IFS= read -r line; do
    set -- $line
    case "$1" in
        ugi) echo "id name broken-$mode"; echo "ugiok" ;;
        isready)
            [ "$lag" = 1 ] && sleep 0.8
            echo "readyok"
            ;;
        uginewgame) moves_made=0 ;;
        position)
            position=$line
            [ "$mode" = laggy ] && [ "$moves_made" -lt "$after" ] && lag=1
            ;;
        go)
            moves_made=$((moves_made + 1))
            if [ "$mode" = laggy ]; then
                [ "$lag" = 1 ] && sleep 0.8
                lag=0
                echo "bestmove $(legal_move)"
                continue
            fi
            if [ "$moves_made" -le "$after" ] || [ "$mode" = "noise" ]; then
                [ "$mode" = "noise" ] && { echo "hello there"; echo "info nonsense 12"; echo "bestmoves are overrated"; }
                echo "bestmove $(legal_move)"
                continue
            fi
            case "$mode" in
                crash) echo "broken: crashing on purpose" >&2; exit 3 ;;
                hang) while IFS= read -r _; do :; done; exit 0 ;;
                illegal) echo "bestmove d4" ;;
                badpass) echo "bestmove pass" ;;
                garbage) echo "bestmove xyzzy" ;;
                slow) sleep 3; echo "bestmove $(legal_move)" ;;
            esac
            ;;
        quit) exit 0 ;;
    esac
done
