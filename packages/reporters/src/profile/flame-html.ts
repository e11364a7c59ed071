import {
  baseLineText,
  decodeFoldedStacks,
  differentialFlameTree,
  flameTree,
  verdictLine,
  type CellComparison,
  type CellResult,
  type FlameNode,
  type ProfileComparison,
} from '@bench/core';
import { escapeHtml, htmlTable } from '../html/page.js';
import { cellTitle, functionChangeText } from './function-changes.js';
import { inferredLegend, mergedProfiles, percentText, topFunctions, type MergedProfile } from './cell-profiles.js';

// Frames under this share of the samples are left out of the drawing (the JSON results keep every stack).
const SMALLEST_DRAWN_SHARE = 1 / 2000;

function pruned(node: FlameNode, least: number): FlameNode {
  const children = node.children.filter((child) => child.value >= least).map((child) => pruned(child, least));
  return { ...node, children };
}

/**
 * A flame graph (d3-flame-graph, drawn by assets/draw-flames.js from the JSON beside it), with a search box;
 * `differential`: frames coloured by their `delta` (red grew, blue shrank).
 */
export function flameFigure(title: string, tree: FlameNode, differential = false): string {
  const drawn = pruned(tree, tree.value * SMALLEST_DRAWN_SHARE);
  const data = JSON.stringify({ differential, tree: drawn }).replace(/</g, '\\u003c');
  // a differential graph's colours are its changes: only the plain graph draws inferred frames in a colour of their own
  const legend = inferredLegend(frameNames(drawn), differential ? undefined : 'drawn in violet');
  return [
    `<figure class="flame" data-flame>`,
    `<figcaption>${escapeHtml(title)}</figcaption>`,
    `<input type="search" placeholder="search functions" aria-label="search functions in ${escapeHtml(title)}">`,
    `<div class="flame-chart"></div>`,
    `<p class="flame-details note"></p>`,
    legend ? `<p class="note inferred">${escapeHtml(legend)}</p>` : '',
    `<script type="application/json">${data}</script>`,
    `</figure>`,
  ].join('');
}

const frameNames = (node: FlameNode): string[] => [node.name, ...node.children.flatMap(frameNames)];

/** A profile's top functions by self time as a table (the flame graph's numbers, as every chart has its table). */
export function topFunctionsTable(profile: MergedProfile, count = 15): string {
  const top = topFunctions(profile.stacks, count);
  const rows = top.map((row) => [row.name, percentText(row.selfPercent), percentText(row.totalPercent)]);
  const legend = inferredLegend(top.map((row) => row.name));
  return [
    htmlTable(['function', 'self', 'total'], rows, `${profile.label}: top functions by self time (${profile.samples} samples)`),
    legend ? `<p class="note inferred">${escapeHtml(legend)}</p>` : '',
  ].join('');
}

/** The run report's profiles: per profiled cell a flame graph, its top functions and what the profile lacks. */
export function profileSections(results: readonly CellResult[]): string {
  return mergedProfiles(results)
    .map((profile) => {
      const notes = profile.notes.length
        ? `<ul class="notes">${profile.notes.map((n) => `<li class="note">${escapeHtml(n)}</li>`).join('')}</ul>`
        : '';
      return [
        `<h3>CPU profile: ${escapeHtml(profile.label)}</h3>`,
        `<p class="meta">${profile.samples} samples (${escapeHtml(profile.source)}), the server's processes over the measured seconds</p>`,
        notes,
        profile.samples > 0 ? flameFigure(`${profile.label}: where the server's CPU went`, flameTree(profile.stacks)) : '',
        topFunctionsTable(profile),
      ].join('\n');
    })
    .join('\n');
}

/**
 * Base against head: a line saying what moved (when there is one), their difference as a flame graph, the table of
 * the functions whose own CPU per request changed most, then base and head side by side.
 */
export function profileDifference(title: string, profile: ProfileComparison, line?: string): string {
  const base = decodeFoldedStacks(profile.base.stacks);
  const head = decodeFoldedStacks(profile.head.stacks);
  const rows = profile.functions.map((f) => {
    const { change, interval } = functionChangeText(f);
    return [`${f.name}${baseLineText(f)}`, f.baseMicros.toFixed(2), f.headMicros.toFixed(2), change, interval];
  });
  const legend = inferredLegend(profile.functions.map((f) => f.name));
  return [
    line ? `<p><strong>${escapeHtml(line)}</strong></p>` : '',
    flameFigure(
      `${title}: head against base (red: more CPU per request than base spent, blue: less)`,
      differentialFlameTree(base, head, profile.base.requests, profile.head.requests),
      true,
    ),
    htmlTable(
      ['function', 'base µs/request', 'head µs/request', 'change', '95% interval'],
      rows,
      `${title}: the functions whose own CPU per request changed most`,
    ),
    legend ? `<p class="note inferred">${escapeHtml(legend)}</p>` : '',
    `<div class="grid">`,
    flameFigure(`${title}: base (${profile.base.samples} samples)`, flameTree(base)),
    flameFigure(`${title}: head (${profile.head.samples} samples)`, flameTree(head)),
    `</div>`,
  ].join('\n');
}

/** A compared cell's profiles: the verdict with the function it blames, then base against head. */
export function profileComparisonSection(cell: CellComparison): string {
  if (!cell.profile) return '';
  return [`<h3>Where the CPU per request moved</h3>`, profileDifference(cellTitle(cell), cell.profile, verdictLine(cell))].join('\n');
}
