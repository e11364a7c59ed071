// Draws every chart of a bench HTML report with uPlot (inlined beside this script). Each chart is a
// <figure> holding a <div data-chart> and, in a JSON <script>, what to draw; its numbers are also in
// the table below it. Runs in the browser, offline.
/* global uPlot */
(function () {
  'use strict';
  var PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4b5563', '#65a30d'];
  var NINES = { 0.301: 'p50', 1: 'p90', 2: 'p99', 3: 'p99.9', 4: 'p99.99', 5: 'p99.999' };

  function color(i, given) {
    return given || PALETTE[i % PALETTE.length];
  }

  function formatNumber(v) {
    if (v == null) return '';
    var abs = Math.abs(v);
    if (abs >= 1e9) return (v / 1e9).toFixed(1) + 'G';
    if (abs >= 1e6) return (v / 1e6).toFixed(1) + 'M';
    if (abs >= 1e4) return (v / 1e3).toFixed(0) + 'k';
    if (abs >= 1e3) return (v / 1e3).toFixed(1) + 'k';
    return String(Math.round(v * 100) / 100);
  }

  // Shades x < 0 (the warm-up seconds) behind the lines.
  function warmupShade(until) {
    return {
      hooks: {
        drawClear: [
          function (u) {
            var min = u.scales.x.min;
            if (min == null || min >= until) return;
            var left = u.valToPos(min, 'x', true);
            var right = u.valToPos(until, 'x', true);
            u.ctx.save();
            u.ctx.fillStyle = 'rgba(148, 163, 184, 0.25)';
            u.ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
            u.ctx.restore();
          },
        ],
      },
    };
  }

  // Whiskers from each bar's low to high value (the repeats' range).
  function rangeWhiskers(ranges) {
    return {
      hooks: {
        draw: [
          function (u) {
            u.ctx.save();
            u.ctx.strokeStyle = '#111827';
            u.ctx.lineWidth = 2 * devicePixelRatio;
            ranges.forEach(function (range, i) {
              if (!range) return;
              var x = u.valToPos(i, 'x', true);
              var lo = u.valToPos(range[0], 'y', true);
              var hi = u.valToPos(range[1], 'y', true);
              var w = 6 * devicePixelRatio;
              u.ctx.beginPath();
              u.ctx.moveTo(x, lo);
              u.ctx.lineTo(x, hi);
              u.ctx.moveTo(x - w, lo);
              u.ctx.lineTo(x + w, lo);
              u.ctx.moveTo(x - w, hi);
              u.ctx.lineTo(x + w, hi);
              u.ctx.stroke();
            });
            u.ctx.restore();
          },
        ],
      },
    };
  }

  // Marks x positions (change points) with a dashed vertical line.
  function markers(xs) {
    return {
      hooks: {
        draw: [
          function (u) {
            u.ctx.save();
            u.ctx.strokeStyle = '#dc2626';
            u.ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
            u.ctx.lineWidth = 2 * devicePixelRatio;
            xs.forEach(function (x) {
              var px = u.valToPos(x, 'x', true);
              u.ctx.beginPath();
              u.ctx.moveTo(px, u.bbox.top);
              u.ctx.lineTo(px, u.bbox.top + u.bbox.height);
              u.ctx.stroke();
            });
            u.ctx.restore();
          },
        ],
      },
    };
  }

  function optionsFor(spec, width) {
    var axes = [
      { label: spec.xLabel || '' },
      {
        label: spec.yLabel || '',
        values: function (u, vals) {
          return vals.map(formatNumber);
        },
        size: 60,
      },
    ];
    var scales = { x: { time: false } };
    var plugins = [];
    var series = [{ label: spec.xLabel || 'x' }];
    var hasRight = spec.series.some(function (s) {
      return s.axis === 'right';
    });
    if (hasRight) {
      scales.right = { auto: true };
      axes.push({
        scale: 'right',
        side: 1,
        label: spec.rightLabel || '',
        grid: { show: false },
        values: function (u, vals) {
          return vals.map(formatNumber);
        },
        size: 60,
      });
    }
    spec.series.forEach(function (s, i) {
      var c = color(i, s.color);
      var one = {
        label: s.label,
        stroke: c,
        width: 2,
        scale: s.axis === 'right' ? 'right' : 'y',
        spanGaps: false,
        points: { show: spec.kind !== 'time' || spec.x.length < 40 },
      };
      if (spec.kind === 'bars') {
        one.fill = c + '99';
        one.paths = s.align ? uPlot.paths.bars({ size: [0.3, 40], align: s.align }) : uPlot.paths.bars({ size: [0.6, 80] });
        one.points = { show: false };
      }
      if (s.dash) one.dash = s.dash;
      series.push(one);
    });
    // seconds and runs are whole numbers: no ticks between them
    if (spec.kind === 'time') axes[0].incrs = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400];
    if (spec.kind === 'percentile') {
      axes[0].values = function (u, vals) {
        return vals.map(function (v) {
          var key = Math.round(v * 1000) / 1000;
          return NINES[key] || '';
        });
      };
      axes[0].splits = function () {
        return [0.301, 1, 2, 3, 4];
      };
      scales.x.range = [0.301, spec.maxX || 4];
    }
    if (spec.kind === 'bars') {
      scales.x.range = [-0.5, spec.labels.length - 0.5];
      axes[0].splits = function () {
        return spec.labels.map(function (_, i) {
          return i;
        });
      };
      axes[0].values = function (u, vals) {
        return vals.map(function (v) {
          return spec.labels[v] == null ? '' : spec.labels[v];
        });
      };
      scales.y = {
        range: function (u, min, max) {
          return [0, Math.max(max, spec.maxY || 0) * 1.1];
        },
      };
      if (spec.ranges) plugins.push(rangeWhiskers(spec.ranges));
    }
    if (spec.kind === 'time' && spec.shadeBefore != null) plugins.push(warmupShade(spec.shadeBefore));
    if (spec.markers && spec.markers.length) plugins.push(markers(spec.markers));
    return {
      width: width,
      height: spec.height || 260,
      scales: scales,
      axes: axes,
      series: series,
      plugins: plugins,
      legend: { show: true },
    };
  }

  function draw(figure) {
    var holder = figure.querySelector('[data-chart]');
    var spec = JSON.parse(figure.querySelector('script[type="application/json"]').textContent);
    var data = [spec.x].concat(
      spec.series.map(function (s) {
        return s.values;
      }),
    );
    var width = Math.max(320, holder.clientWidth || 600);
    holder.innerHTML = '';
    new uPlot(optionsFor(spec, width), data, holder);
    holder.setAttribute('data-drawn', 'true');
  }

  function drawAll() {
    var figures = document.querySelectorAll('figure.chart');
    for (var i = 0; i < figures.length; i++) {
      try {
        draw(figures[i]);
      } catch (error) {
        console.error('bench: chart ' + i + ' could not be drawn: ' + error);
      }
    }
  }

  // a live page (bench's dashboard) draws again after each update
  window.benchDrawCharts = drawAll;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', drawAll);
  else drawAll();
})();
