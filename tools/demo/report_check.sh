#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report_check.sh REPORT.html SCREENSHOT.png: open make demo's report in
# Debian's headless Chromium, keep a screenshot, and check that every
# image loaded and no script error occurred. A copy of the report with a
# small probe script first in <head> records script errors (window's
# error event, which also sees a failed resource with capture) and, at
# load, each image's state into the DOM (tools/demo/report_probe.js);
# --dump-dom prints that DOM.
# Prints "report: N/M images loaded, E script errors"; exit 0 only when
# every image loaded and nothing failed.
set -uo pipefail
html=$(readlink -f "$1")
png=$2
dir=$(dirname "$html")
chrome=$(command -v chromium || command -v chromium-browser) || {
	echo "report_check: chromium is not installed (tools/install-deps.sh)" >&2
	exit 2
}
probe=$dir/.report-check.html
probe_js=$dir/.report-probe.js
profile=$(mktemp -d /tmp/rocedp-chromium.XXXXXX)
trap 'rm -rf "$profile" "$probe" "$probe_js"' EXIT
# root runs Chromium without its sandbox (it refuses to start otherwise);
# a private profile so parallel runs never share one
opts=(--headless --disable-gpu --no-first-run --user-data-dir="$profile"
	--virtual-time-budget=5000 --window-size=1100,3000 --hide-scrollbars)
[ "$(id -u)" = 0 ] && opts+=(--no-sandbox)

cp "$(dirname "$0")/report_probe.js" "$probe_js" &&
	sed 's|<head>|<head><script src=".report-probe.js"></script>|' "$html" >"$probe" || exit 1

dom=$("$chrome" "${opts[@]}" --dump-dom "file://$probe" 2>"$profile/dom.log")
line=$(grep -o 'id="rd-check">rd-check images [^<]*' <<<"$dom" | head -n 1)
line=${line#*>}
if [ -z "$line" ]; then
	echo "report_check: Chromium printed no check line: $(tail -n 3 "$profile/dom.log")" >&2
	exit 1
fi
"$chrome" "${opts[@]}" --screenshot="$(readlink -f "$(dirname "$png")")/$(basename "$png")" \
	"file://$html" >"$profile/shot.log" 2>&1
[ -s "$png" ] || {
	echo "report_check: no screenshot: $(tail -n 3 "$profile/shot.log")" >&2
	exit 1
}
read -r _ _ imgs _ errs rest <<<"$line"
echo "report: ${imgs} images loaded, $errs script errors${rest:+ ($rest)}; screenshot $png"
[ "${imgs%/*}" = "${imgs#*/}" ] && [ "${imgs#*/}" -gt 0 ] && [ "$errs" = 0 ] && [ -z "$rest" ]
