// Draws every flame graph of a bench HTML report with d3-flame-graph and d3-selection (inlined beside this script).
// Each is a <figure data-flame> holding, in a JSON <script>, the call tree; its top functions are in the table below it.
/* global d3, flamegraph */
(function () {
  'use strict';
  var INFERRED_COLOR = '#b9a7e3';
  function draw(figure) {
    var spec = JSON.parse(figure.querySelector('script[type="application/json"]').textContent);
    var holder = figure.querySelector('.flame-chart');
    var chart = flamegraph()
      .width(Math.max(480, holder.clientWidth || 960))
      .cellHeight(18)
      .minFrameSize(2)
      .transitionDuration(0)
      .sort(true)
      .setDetailsElement(figure.querySelector('.flame-details'));
    // differential: each frame's delta is its own change; the chart adds its children's (red grew, blue shrank)
    if (spec.differential) chart.computeDelta(true).setColorMapper(flamegraph.colorMapper.differentialColorMapper);
    // else a frame bench inferred (a function V8 inlined, given its samples back) is drawn in a colour of its own
    else
      chart.setColorMapper(function (d, originalColor) {
        return !d.highlight && / \[inferred\]$/.test(d.data.name) ? INFERRED_COLOR : originalColor;
      });
    d3.select(holder).datum(spec.tree).call(chart);
    figure.querySelector('input[type="search"]').addEventListener('input', function (event) {
      if (event.target.value) chart.search(event.target.value);
      else chart.clear();
    });
  }

  function drawAll() {
    document.querySelectorAll('figure[data-flame]').forEach(function (figure) {
      try {
        draw(figure);
      } catch (error) {
        console.error('bench: flame graph could not be drawn: ' + error);
      }
    });
  }

  // a live page (bench's dashboard) draws again after each update
  window.benchDrawFlames = drawAll;
  drawAll();
})();
