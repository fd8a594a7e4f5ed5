#!/bin/sh
# ai-heart postrm: the unit is gone, so systemd forgets it. The workspace
# under /var/lib/ai-heart and the user are left alone, even on purge: they
# hold the agent's work.
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
fi
