import type { RunEvent } from '../run/run-events.js';
import type { Redaction } from '@bench/core';

/** A run event as its listeners (journal, progress, outputs, the API's onEvent) may show it: no secret in its text. */
export function redactEvent(redaction: Redaction, event: RunEvent): RunEvent {
  switch (event.type) {
    case 'plan':
      // the plan's scenarios are the objects the run sends; what listeners print of them goes through `text`
      return { ...event, options: redaction.value(event.options) };
    case 'target-starting':
    case 'target-verifying':
      return { ...event, scenario: redaction.text(event.scenario), target: redaction.text(event.target) };
    case 'cell-start':
      return {
        ...event,
        scenario: redaction.text(event.scenario),
        target: redaction.text(event.target),
        ...(event.unfinished ? { unfinished: redaction.value(event.unfinished) } : {}),
      };
    case 'cell-end':
      return { ...event, result: redaction.value(event.result) };
    case 'step':
      return { ...event, text: redaction.text(event.text) };
    case 'round-end':
    case 'rounds-end':
      return { ...event, lines: event.lines.map((line) => redaction.text(line)) };
    case 'cell-progress':
      return event; // counts and histograms only, every second: nothing to hide, and it stays cheap
  }
}
