#!/bin/sh
# A line-protocol engine (docs/engines.md) in POSIX sh: it answers go with the first legal
# move. The sandbox tests run it under DefaultLimits.
legal=
while read -r cmd rest; do
	case $cmd in
	arena) echo "ready shengine 1.0" ;;
	legal) legal=$rest ;;
	go) set -- $legal; echo "$1" ;;
	quit) exit 0 ;;
	esac
done
