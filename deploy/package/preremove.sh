#!/bin/sh
# ai-heart prerm: stop the daemon before its binary goes.
set -e
if [ -d /run/systemd/system ] && [ "$1" = "remove" ]; then
	systemctl stop ai-heart-watchdog.service || true
fi
