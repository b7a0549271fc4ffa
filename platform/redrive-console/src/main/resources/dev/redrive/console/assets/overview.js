// The overview's charts: each route's arrivals by failure class over time, drawn with uPlot from /api/arrivals.
// Served by the console itself (CSP script-src 'self'); no inline script, no inline style attribute in the markup.
(function () {
  'use strict';
  var colours = { TRANSIENT: '#0969da', PERMANENT: '#cf222e', SCHEMA: '#8250df', POISON: '#1a7f37' };

  // Deploy markers: a dashed vertical line where the consumer's build version changed, labelled with the version.
  function versionMarkers(markers) {
    return {
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx;
          var ratio = window.devicePixelRatio || 1;
          ctx.save();
          markers.forEach(function (m) {
            var x = Math.round(u.valToPos(m.at, 'x', true));
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) { return; }
            ctx.strokeStyle = '#bf8700';
            ctx.lineWidth = ratio;
            ctx.setLineDash([4 * ratio, 3 * ratio]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = '#9a6700';
            ctx.font = (11 * ratio) + 'px system-ui, sans-serif';
            ctx.fillText(m.version, x + 3 * ratio, u.bbox.top + 11 * ratio);
          });
          ctx.restore();
        }]
      }
    };
  }

  function listMarkers(el, markers) {
    if (!markers.length) { return; }
    var list = document.createElement('ul');
    list.className = 'version-markers';
    markers.forEach(function (m) {
      var item = document.createElement('li');
      item.textContent = new Date(m.at * 1000).toISOString().replace('.000', '') + ': version ' + m.from + ' → ' +
        m.version;
      list.appendChild(item);
    });
    el.parentNode.appendChild(list);
  }

  // The time × class matrix under the chart: a row per class, a column per bucket; each count links to the dead
  // letters of that class that arrived in that bucket (every state), the drill-down.
  function matrix(el, data) {
    var queue = new URLSearchParams(el.getAttribute('data-src').split('?')[1] || '').get('queue') || '';
    var table = document.createElement('table');
    table.className = 'arrivals-matrix';
    var head = document.createElement('tr');
    head.appendChild(document.createElement('th'));
    data.times.forEach(function (t) {
      var th = document.createElement('th');
      var at = new Date(t * 1000);
      th.textContent = ('0' + at.getUTCHours()).slice(-2) + ':' + ('0' + at.getUTCMinutes()).slice(-2);
      th.title = at.toISOString().replace('.000', '');
      head.appendChild(th);
    });
    var thead = document.createElement('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement('tbody');
    Object.keys(data.counts).forEach(function (c) {
      var row = document.createElement('tr');
      row.setAttribute('data-class', c);
      var label = document.createElement('th');
      label.textContent = c;
      row.appendChild(label);
      data.counts[c].forEach(function (n, i) {
        var cell = document.createElement('td');
        cell.className = 'num';
        if (n > 0) {
          var from = new Date(data.times[i] * 1000).toISOString().replace('.000', '');
          var to = new Date((data.times[i] + data.step) * 1000).toISOString().replace('.000', '');
          var link = document.createElement('a');
          link.href = '/dead-letters?' + new URLSearchParams({ queue: queue, state: 'all', 'class': c, from: from,
            to: to }).toString();
          link.textContent = String(n);
          link.setAttribute('data-count', String(n));
          cell.appendChild(link);
        }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    var wrap = document.createElement('div');
    wrap.className = 'matrix-wrap';
    wrap.appendChild(table);
    el.parentNode.appendChild(wrap);
  }

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
      scales: { x: { time: true } }, axes: [{}, { label: 'dead letters' }],
      plugins: [versionMarkers(data.markers || [])] }, columns, el);
    listMarkers(el, data.markers || []);
    matrix(el, data);
  }

  document.querySelectorAll('.arrivals-chart[data-src]').forEach(function (el) {
    fetch(el.getAttribute('data-src'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
      .then(function (data) { draw(el, data); })
      .catch(function (e) { el.textContent = 'The chart could not be loaded: ' + e.message; });
  });
})();
