#!/usr/bin/env bash
# An engine for the match runner's tests that tells how it was started: it appends its working
# directory and its arguments (one a line) to spy-NAME.log in its working directory, writes a line
# on stderr, then runs Magpie ($MAGPIE) with the MAGPIE-ARGS, copying every line it is sent to
# received-NAME.log. NOTE is only logged (it may hold blanks).
# Usage: spy_engine.sh NAME NOTE [MAGPIE-ARGS...]
name=${1:?name}
note=${2?note}
shift 2
{
    echo "cwd $(pwd)"
    echo "note $note"
    for arg in "$@"; do echo "arg $arg"; done
} >>"spy-$name.log"
echo "spy $name says hello on stderr" >&2
tee -a "received-$name.log" | "$MAGPIE" "$@"
