// The overview's charts: each route's arrivals by failure class over time, drawn with uPlot from /api/arrivals.
// Served by the console itself (CSP script-src 'self'); no inline script, no inline style attribute in the markup.
(function () {
  'use strict';
  var colours = { TRANSIENT: '#0969da', PERMANENT: '#cf222e', SCHEMA: '#8250df', POISON: '#1a7f37' };

  function draw(el, data) {
    var classes = Object.keys(data.counts);
    var series = [{}];
    var columns = [data.times];
    classes.forEach(function (c) {
      series.push({ label: c, stroke: colours[c] || '#57606a', width: 2, points: { show: true } });
      columns.push(data.counts[c]);
    });
    // eslint-disable-next-line no-undef
    new uPlot({ width: Math.max(320, el.clientWidth || 720), height: 220, series: series,
      scales: { x: { time: true } }, axes: [{}, { label: 'dead letters' }] }, columns, el);
  }

  document.querySelectorAll('.arrivals-chart[data-src]').forEach(function (el) {
    fetch(el.getAttribute('data-src'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
      .then(function (data) { draw(el, data); })
      .catch(function (e) { el.textContent = 'The chart could not be loaded: ' + e.message; });
  });
})();
