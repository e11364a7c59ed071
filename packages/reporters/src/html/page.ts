import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageFile } from '@bench/core';

const require = createRequire(import.meta.url);

/** Text made safe for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// uPlot's files and our drawing script, read once and inlined: the page needs no network, even from file://.
let assets: { css: string; js: string } | undefined;
function inlineAssets(): { css: string; js: string } {
  if (!assets) {
    const uplotJs = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
    const uplotCss = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
    const draw = readFileSync(packageFile(import.meta.url, 'assets', 'draw-charts.js'), 'utf8');
    // a closing script tag inside inlined code would end the element early
    assets = { css: uplotCss, js: `${uplotJs}\n${draw}`.replace(/<\/script/gi, '<\\/script') };
  }
  return assets;
}

// d3-flame-graph (with d3-selection, which it draws into) and our script, inlined only into pages that have a flame graph.
let flameAssets: { css: string; js: string } | undefined;
function inlineFlameAssets(): { css: string; js: string } {
  if (!flameAssets) {
    const read = (file: string) => readFileSync(require.resolve(file), 'utf8');
    // d3-selection exports no path to its browser bundle: it sits in dist/, where its module entry resolves to
    const selection = path.join(path.dirname(require.resolve('d3-selection')), '..', 'dist', 'd3-selection.min.js');
    const js = [
      readFileSync(selection, 'utf8'),
      read('d3-flame-graph/dist/d3-flamegraph.min.js'),
      read('d3-flame-graph/dist/d3-flamegraph-colorMapper.min.js'),
      readFileSync(packageFile(import.meta.url, 'assets', 'draw-flames.js'), 'utf8'),
    ].join('\n');
    flameAssets = { css: read('d3-flame-graph/dist/d3-flamegraph.css'), js: js.replace(/<\/script/gi, '<\\/script') };
  }
  return flameAssets;
}

const STYLE = `
:root { color-scheme: light; --fg: #111827; --muted: #4b5563; --line: #e5e7eb; --bad: #b91c1c; --good: #15803d; --warn: #b45309; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.meta { color: var(--muted); margin: 0 0 4px; } code { font: 12px ui-monospace, monospace; background: #f3f4f6; padding: 1px 4px; border-radius: 3px; }
table { border-collapse: collapse; margin: 6px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; } th { background: #f9fafb; }
td:first-child, th:first-child { text-align: left; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 12px 24px; }
figure.chart { margin: 0; } figure.chart figcaption { font-weight: 600; margin-bottom: 4px; }
details > summary { cursor: pointer; color: var(--muted); }
.pass { color: var(--good); font-weight: 600; } .fail { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); }
ul.notes { margin: 4px 0 12px; padding-left: 20px; } .note { color: var(--muted); }
pre { font: 12px/1.35 ui-monospace, monospace; background: #f9fafb; border: 1px solid var(--line); padding: 8px; overflow-x: auto; }
section.suite h2 { font-size: 20px; } section.suite table { font-size: 13px; }
figure.flame { margin: 8px 0; } figure.flame figcaption { font-weight: 600; margin-bottom: 4px; }
figure.flame input[type="search"] { font: inherit; padding: 2px 6px; margin-bottom: 4px; width: 240px; }
`;

/**
 * A whole report: one self-contained HTML file (uPlot and the drawing script inlined; d3-flame-graph too when the
 * body has a flame graph, or `withFlames` for a live page whose later bodies may).
 */
export function renderPage(title: string, body: string, withFlames = false): string {
  const { css, js } = inlineAssets();
  const flames = withFlames || body.includes('data-flame') ? inlineFlameAssets() : undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
<style>${STYLE}</style>${flames ? `\n<style>${flames.css}</style>` : ''}
</head>
<body>
${body}
<script>${js}</script>${flames ? `\n<script>${flames.js}</script>` : ''}
</body>
</html>
`;
}

/** A table of plain cells; the first row is the header. */
export function htmlTable(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>, caption?: string): string {
  const cells = (row: readonly (string | number)[], tag: 'td' | 'th') =>
    row.map((c) => `<${tag}>${escapeHtml(String(c))}</${tag}>`).join('');
  return [
    '<table>',
    caption ? `<caption>${escapeHtml(caption)}</caption>` : '',
    `<thead><tr>${cells(header, 'th')}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody>`,
    '</table>',
  ].join('');
}
