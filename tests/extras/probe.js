// probe.js - appended (inline) to a copy of a blkscope HTML report by
// tests/t-analyze-extras-html.sh: after layout, records what the reader's
// window shows, for `chromium --dump-dom` to print:
//   sw, iw     the document's scroll width and the window's inner width
//              (sw > iw: the page scrolls sideways, something is cut off)
//   charts     [name, x, y, w, h, right] per chart: its plot area (the
//              <svg>'s data-plot through its screen transform) in window
//              pixels, and its figure's right edge
addEventListener('load', function () {
	var o = { sw: document.documentElement.scrollWidth, iw: innerWidth, charts: [] };
	document.querySelectorAll('figure svg[data-plot]').forEach(function (s) {
		var p = s.dataset.plot.split(' ').map(Number), m = s.getScreenCTM();
		var a = s.createSVGPoint(), b = s.createSVGPoint();
		a.x = p[0]; a.y = p[1]; b.x = p[0] + p[2]; b.y = p[1] + p[3];
		a = a.matrixTransform(m); b = b.matrixTransform(m);
		o.charts.push([s.dataset.chart, Math.round(a.x), Math.round(a.y), Math.round(b.x - a.x),
			       Math.round(b.y - a.y), Math.round(s.parentNode.getBoundingClientRect().right)]);
	});
	var e = document.createElement('pre');
	e.id = 'probe';
	e.hidden = true;
	e.textContent = JSON.stringify(o);
	document.body.appendChild(e);
});
