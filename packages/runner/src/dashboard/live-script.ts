// The dashboard page's own script: every second it fetches the report body again and redraws its charts (the
// report's drawing script, inlined after it); when the run has ended it offers the final report as a file and stops.
export const liveScript = `<script>
(function () {
  'use strict';
  var status = document.getElementById('bench-live-status');
  var main = document.getElementById('bench-live');
  function say(text) { status.textContent = text; }
  function offerReport() {
    fetch('report.html').then(function (r) { return r.ok ? r.text() : ''; }).then(function (html) {
      if (!html) return say('The run has ended.');
      var link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
      link.download = 'bench-report.html';
      link.textContent = 'save the final report';
      say('The run has ended: this page is its final report; ');
      status.appendChild(link);
    }).catch(function () { say('The run has ended.'); });
  }
  function poll() {
    fetch('body').then(function (r) { return r.json(); }).then(function (update) {
      if (update.html) {
        main.innerHTML = update.html;
        if (window.benchDrawCharts) window.benchDrawCharts();
        if (window.benchDrawFlames) window.benchDrawFlames();
      }
      if (update.finished) return offerReport();
      say('Live: updated ' + new Date().toLocaleTimeString() + ', every second.');
      setTimeout(poll, 1000);
    }).catch(function () { say('The run has ended and bench no longer serves this page.'); });
  }
  say('Live: updated every second.');
  setTimeout(poll, 1000);
})();
</script>`;
