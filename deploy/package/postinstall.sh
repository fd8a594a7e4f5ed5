#!/bin/sh
# ai-heart postinst: the system user and its state folder. Nothing is
# enabled or started: the operator does that after editing the config. On
# an upgrade (dpkg passes "configure OLD-VERSION"; a first install passes
# no version) a running watchdog is restarted onto the new binary, and a
# stopped one stays stopped (try-restart).
set -e
if [ "$1" = "configure" ] || [ "$1" = "" ]; then
	if ! getent passwd ai-heart >/dev/null; then
		if command -v systemd-sysusers >/dev/null 2>&1; then
			systemd-sysusers /usr/lib/sysusers.d/ai-heart.conf
		else
			adduser --system --group --home /var/lib/ai-heart --no-create-home ai-heart
		fi
	fi
	install -d -o ai-heart -g ai-heart -m 0750 /var/lib/ai-heart
	if [ -d /run/systemd/system ]; then
		systemctl daemon-reload || true
		if [ -n "$2" ]; then
			systemctl try-restart ai-heart-watchdog.service || true
		fi
	fi
fi
