// Bulk runs: the run page polls its progress (GET /api/bulk/runs/{id}) while the run is queued or running, updates the
// counts in place and reloads once it has ended (the final tallies and the per-dead-letter lines are server-rendered).
// The dead-letters page: "select all shown" ticks every row's box. Served by the console itself (CSP script-src 'self').
(function () {
  'use strict';

  function text(id, value) {
    var el = document.getElementById(id);
    if (el) { el.textContent = String(value); }
  }

  function tallies(rows) {
    var body = document.querySelector('#tallies tbody');
    if (!body) { return; }
    while (body.firstChild) { body.removeChild(body.firstChild); }
    rows.forEach(function (t) {
      var tr = document.createElement('tr');
      tr.setAttribute('data-outcome', t.outcome);
      var label = document.createElement('td');
      label.textContent = t.label;
      var count = document.createElement('td');
      count.className = 'num';
      count.textContent = String(t.count);
      tr.appendChild(label);
      tr.appendChild(count);
      body.appendChild(tr);
    });
  }

  var progress = document.getElementById('progress');
  if (progress && progress.getAttribute('data-active') === 'true') {
    var url = '/api/bulk/runs/' + encodeURIComponent(progress.getAttribute('data-run'));
    var poll = function () {
      fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
        .then(function (p) {
          text('phase', p.phase + (p.stopRequested ? ' (stop requested)' : ''));
          text('done', p.done);
          text('left', p.left);
          text('failure', p.failure);
          tallies(p.tallies);
          if (p.active) {
            window.setTimeout(poll, 1000);
          } else {
            window.location.reload();
          }
        })
        .catch(function (e) { text('failure', 'Progress could not be read: ' + e.message); });
    };
    window.setTimeout(poll, 500);
  }

  var all = document.getElementById('select-all');
  if (all) {
    all.addEventListener('change', function () {
      document.querySelectorAll('input[type=checkbox][name=id][form=bulk-selection]').forEach(function (box) {
        box.checked = all.checked;
      });
    });
  }
})();
