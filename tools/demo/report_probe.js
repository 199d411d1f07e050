// SPDX-License-Identifier: GPL-2.0
// tools/demo/report_check.sh loads this first in a copy of make demo's
// report: it records script errors and resources that failed to load
// (window's error event, capture phase), and at load each image's state,
// into a <pre id="rd-check"> that Chromium's --dump-dom prints.
window.rdErrors = [];
window.addEventListener("error", function (e) {
	var t = e.target;
	window.rdErrors.push(t && t !== window && t.tagName ?
		"load " + t.tagName + " " + (t.src || t.href) :
		"script " + e.message);
}, true);
window.addEventListener("load", function () {
	var imgs = document.images, ok = 0, bad = [], p;
	for (var i = 0; i < imgs.length; i++) {
		if (imgs[i].complete && imgs[i].naturalWidth > 0)
			ok++;
		else
			bad.push(imgs[i].getAttribute("src"));
	}
	p = document.createElement("pre");
	p.id = "rd-check";
	p.textContent = "rd-check images " + ok + "/" + imgs.length +
		" errors " + window.rdErrors.length +
		(bad.length ? " broken " + bad.join(",") : "") +
		(window.rdErrors.length ? " | " + window.rdErrors.join(" | ") : "");
	document.body.appendChild(p);
});
