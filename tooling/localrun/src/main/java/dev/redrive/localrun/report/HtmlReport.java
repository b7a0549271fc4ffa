package dev.redrive.localrun.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The report as one static HTML page: the run's figures and checks as tables, and its timeline as line charts drawn
 * by a small inline script into SVG. No server, no network: the data is in the page, the script is in the page.
 *
 * <p>Each chart is an {@code <svg data-chart=ID>} with one {@code <polyline data-series=NAME data-points=N>} per
 * series, so a headless browser's DOM shows that every chart was drawn with all its samples. A chart is drawn at its
 * grid column's width (and again whenever that width changes), so its time axis is never cut off; a chart of counts
 * ({@link Timeline.Chart#counts()}) has whole-number ticks.
 */
public final class HtmlReport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HtmlReport() {}

    /** Writes the page for {@code report} (with its timeline under {@code "timeline"}) to {@code file}. */
    public static void write(Path file, String title, Map<String, Object> report) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, page(title, report), StandardCharsets.UTF_8);
    }

    /** Where the page goes for a JSON report at {@code json}: next to it, {@code .html} for {@code .json}. */
    public static Path nextTo(Path json) {
        String name = json.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return json.resolveSibling(base + ".html");
    }

    static String page(String title, Map<String, Object> report) throws JsonProcessingException {
        // "</" cannot end the script element early: every "<" in the data is escaped
        String data = JSON.writeValueAsString(report).replace("<", "\\u003c");
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>%s</title>
                <style>
                body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
                h1{font-size:20px} h2{font-size:16px;margin-top:28px}
                table{border-collapse:collapse;margin:8px 0} td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
                td.n{text-align:right} .pass{color:#176f2c;font-weight:600} .fail{color:#b00020;font-weight:600}
                .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%%,520px),1fr));gap:18px}
                .chart{min-width:0} .chart h3{font-size:14px;margin:0 0 4px} svg{display:block;background:#fafafa;outline:1px solid #ddd}
                .legend span{display:inline-block;margin-right:12px;font-size:12px}
                .legend i{display:inline-block;width:12px;height:3px;margin-right:4px;vertical-align:middle}
                </style></head><body>
                <h1>%s</h1>
                <div id="checks"></div>
                <div id="figures"></div>
                <h2>Over time</h2>
                <div class="charts" id="charts"></div>
                <script type="application/json" id="report-data">%s</script>
                <script>
                %s
                </script>
                </body></html>
                """.formatted(escape(title), escape(title), data, SCRIPT);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static final String SCRIPT = """
            (function () {
              var report = JSON.parse(document.getElementById('report-data').textContent);
              var colors = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f',
                            '#bcbd22','#17becf','#393b79','#637939'];
              function el(name, attrs, text) {
                var ns = ['svg','polyline','line','text','g','rect'].indexOf(name) >= 0
                    ? 'http://www.w3.org/2000/svg' : null;
                var e = ns ? document.createElementNS(ns, name) : document.createElement(name);
                for (var k in (attrs || {})) { e.setAttribute(k, attrs[k]); }
                if (text !== undefined) { e.textContent = text; }
                return e;
              }
              var checks = report.checks || {};
              var ct = el('table', {id: 'checks-table'});
              ct.appendChild(el('tr')).appendChild(el('th', {colspan: 2}, 'Checks'));
              Object.keys(checks).forEach(function (name) {
                var tr = el('tr', {'data-check': name});
                tr.appendChild(el('td', {'class': checks[name] ? 'pass' : 'fail'}, checks[name] ? 'PASS' : 'FAIL'));
                tr.appendChild(el('td', {}, name));
                ct.appendChild(tr);
              });
              document.getElementById('checks').appendChild(ct);
              var figures = document.getElementById('figures');
              (report.tables || []).forEach(function (t) {
                figures.appendChild(el('h2', {}, t.title));
                var table = el('table', {'data-table': t.title});
                var head = el('tr');
                t.columns.forEach(function (c) { head.appendChild(el('th', {}, c)); });
                table.appendChild(head);
                t.rows.forEach(function (r) {
                  var tr = el('tr');
                  r.forEach(function (v) {
                    tr.appendChild(el('td', typeof v === 'number' ? {'class': 'n'} : {}, String(v)));
                  });
                  table.appendChild(tr);
                });
                figures.appendChild(table);
              });
              var timeline = report.timeline || {t: [], charts: []};
              var t = timeline.t, H = 240, L = 56, R = 16, T = 10, B = 28;
              var tmax = t.length ? t[t.length - 1] : 1;
              // A count axis gets whole-number ticks: a step of 1, 2 or 5 times a power of ten, at least 1, and the
              // axis ends on a tick at or above the largest value; any other axis five even ticks up to 5% above it.
              function ticks(vmax, counts) {
                if (!counts) {
                  var top = vmax > 0 ? vmax * 1.05 : 1, out = [];
                  for (var i = 0; i <= 4; i++) { out.push(top * i / 4); }
                  return out;
                }
                var raw = Math.max(1, Math.ceil(vmax) / 4), pow = Math.pow(10, Math.floor(Math.log10(raw))), step;
                step = [1, 2, 5, 10].map(function (m) { return m * pow; })
                    .filter(function (c) { return c >= raw; })[0];
                step = Math.max(1, Math.round(step));
                var n = Math.max(1, Math.ceil(vmax / step)), out2 = [];
                for (var k = 0; k <= n; k++) { out2.push(k * step); }
                return out2;
              }
              function label(v, counts) {
                return counts || v >= 100 ? String(Math.round(v)) : v.toFixed(1);
              }
              // Each chart is drawn at its column's width (not a fixed width), and drawn again when that changes; the
              // last time label is anchored at its end so it stays inside the chart.
              function draw(box, chart) {
                var old = box.querySelector('svg');
                if (old) { box.removeChild(old); }
                var W = Math.max(200, Math.floor(box.clientWidth));
                var svg = el('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'data-chart': chart.id,
                                     'data-samples': t.length, 'data-counts': chart.counts ? 'true' : 'false'});
                var names = Object.keys(chart.series), vmax = 0;
                names.forEach(function (n) { chart.series[n].forEach(function (v) { vmax = Math.max(vmax, v); }); });
                var ys = ticks(vmax, chart.counts), top = ys[ys.length - 1];
                function x(s) { return L + (W - L - R) * (tmax > 0 ? s / tmax : 0); }
                function y(v) { return H - B - (H - B - T) * (v / top); }
                svg.appendChild(el('line', {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: '#999'}));
                svg.appendChild(el('line', {x1: L, y1: T, x2: L, y2: H - B, stroke: '#999'}));
                ys.forEach(function (v) {
                  svg.appendChild(el('text', {x: L - 4, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 10,
                      'class': 'y-tick'}, label(v, chart.counts)));
                });
                for (var i = 0; i <= 4; i++) {
                  var s = tmax * i / 4;
                  svg.appendChild(el('text', {x: x(s), y: H - B + 14, 'font-size': 10, 'class': 't-tick',
                      'text-anchor': i === 0 ? 'start' : (i === 4 ? 'end' : 'middle')}, Math.round(s) + ' s'));
                }
                names.forEach(function (n, k) {
                  var pts = chart.series[n].map(function (v, j) {
                    return x(t[j]).toFixed(1) + ',' + y(v).toFixed(1);
                  }).join(' ');
                  svg.appendChild(el('polyline', {points: pts, fill: 'none', stroke: colors[k % colors.length],
                      'stroke-width': 1.5, 'data-series': n, 'data-points': chart.series[n].length,
                      'data-last': chart.series[n].length ? chart.series[n][chart.series[n].length - 1] : 0}));
                });
                box.insertBefore(svg, box.querySelector('.legend'));
              }
              var drawn = [];
              timeline.charts.forEach(function (chart) {
                var box = el('div', {'class': 'chart'});
                box.appendChild(el('h3', {}, chart.title + (chart.unit ? ' (' + chart.unit + ')' : '')));
                var legend = el('div', {'class': 'legend'});
                Object.keys(chart.series).forEach(function (n, k) {
                  var item = el('span');
                  var swatch = el('i');
                  swatch.style.background = colors[k % colors.length];
                  item.appendChild(swatch);
                  item.appendChild(document.createTextNode(n));
                  legend.appendChild(item);
                });
                box.appendChild(legend);
                document.getElementById('charts').appendChild(box);
                draw(box, chart);
                drawn.push([box, chart]);
              });
              // Drawn again whenever the charts' column width changes: a window resized, and also a vertical scroll
              // bar that appears once the page is drawn (no resize event for that one), which narrows every column.
              // Each chart is redrawn when its column is no longer the width it was drawn at.
              function redrawResized() {
                drawn.forEach(function (d) {
                  if (Math.floor(d[0].clientWidth) !== Number(d[0].querySelector('svg').getAttribute('width'))) {
                    draw(d[0], d[1]);
                  }
                });
              }
              redrawResized();
              if (window.ResizeObserver) {
                new ResizeObserver(redrawResized).observe(document.getElementById('charts'));
              } else {
                window.addEventListener('resize', redrawResized);
              }
              document.body.setAttribute('data-rendered', 'true');
            })();
            """;
}
