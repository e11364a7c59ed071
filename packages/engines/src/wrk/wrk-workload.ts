import { encodeValue, isEncoded, parseTemplate, type TemplatePlace, type Workload, type WorkloadStep } from '@bench/core';
import { lua } from './wrk-script.js';

/**
 * A template as a Lua expression: its text joined (`..`) with the values the thread makes per request, a path's
 * values percent-encoded (`enc`) as bench's other engines encode them.
 */
function templateExpression(text: string, place: TemplatePlace): string {
  const parts = parseTemplate(text).map((part) => {
    if (typeof part === 'string') return lua(part);
    const { name, args } = part;
    const encoded = isEncoded(part, place);
    if (name === 'counter') return 'tostring(counter())';
    if (name === 'uuid') return 'uuid()';
    if (name === 'randomInt') return `tostring(math.random(${Number(args[0])}, ${Number(args[1])}))`;
    // pick's words are known: encoded here, once
    if (name === 'pick') return `pick({ ${args.map((arg) => lua(encoded ? encodeValue(arg) : arg)).join(', ')} })`;
    // row.COLUMN (wrk runs no flow: a template names no captured variable)
    const value = `(row[${lua(name.slice(4))}] or "")`;
    return encoded ? `enc(${value})` : value;
  });
  return parts.length === 0 ? '""' : parts.join(' .. ');
}

function stepRequest(step: WorkloadStep, close: boolean): string {
  const headers = { ...step.headers, ...(close ? { Connection: 'close' } : {}) };
  const table = Object.entries(headers)
    .map(([name, value]) => `[${lua(name)}] = ${templateExpression(value, 'header')}`)
    .join(', ');
  const body = step.body !== undefined ? templateExpression(step.body, 'body') : 'nil';
  return `function() return wrk.format(${lua(step.method)}, ${templateExpression(step.path, 'path')}, { ${table} }, ${body}) end`;
}

/**
 * The Lua that makes a workload's requests in wrk: `request()` picks a mix member by smooth weighted round robin (each
 * thread its own sequence) and renders its request with generated values; counters stride over the threads; data rows
 * are in the script. It counts what each member sent in `sent` (wrk cannot tell which request an answer belongs to).
 * Only a workload of one slot of one-step members (what wrk's `supportsWorkload` lets through).
 */
export function wrkWorkloadLua(workload: Workload, threads: number, close: boolean): string {
  const members = workload.cycle[0] ?? [];
  const data = workload.data;
  const rows = data
    ? `{ ${data.rows
        .map(
          (row) =>
            `{ ${Object.entries(row)
              .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
              .join(', ')} }`,
        )
        .join(',\n  ')} }`
    : '{}';
  return `
-- the workload: generated values and a weighted mix, rendered per request
thread_id = 0
local thread_count = ${threads}
local counted = 0
local function counter() counted = counted + 1; return (counted - 1) * thread_count + thread_id + 1 end
local function r16() return math.random(0, 65535) end
local function uuid()
  return string.format("%04x%04x-%04x-4%03x-%04x-%04x%04x%04x", r16(), r16(), r16(), math.random(0, 4095), math.random(32768, 49151), r16(), r16(), r16())
end
local function pick(list) return list[math.random(#list)] end
-- a value as a URI component, byte by byte (the script's strings are UTF-8): encodeURIComponent's set
local function enc(value)
  return (string.gsub(value, "[^A-Za-z0-9_.!~*'()%-]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
local ROWS = ${rows}
local rows_taken = 0
row = {}
local function next_row()
  ${data?.order === 'random' ? 'return ROWS[math.random(#ROWS)]' : 'rows_taken = rows_taken + 1; return ROWS[((rows_taken - 1) * thread_count + thread_id) % #ROWS + 1]'}
end
local NAMES = { ${members.map((m) => lua(m.name)).join(', ')} }
local WEIGHTS = { ${members.map((m) => m.weight).join(', ')} }
local REQUESTS = {
  ${members.map((m) => stepRequest(m.steps[0]!, close)).join(',\n  ')}
}
local total_weight = 0
for _, w in ipairs(WEIGHTS) do total_weight = total_weight + w end
local current = {}
for i = 1, #WEIGHTS do current[i] = 0 end
local function pick_member()
  local best = 1
  for i = 1, #WEIGHTS do
    current[i] = current[i] + WEIGHTS[i]
    if current[i] > current[best] then best = i end
  end
  current[best] = current[best] - total_weight
  return best
end
sent = {}

function init(args)
  started_us = now_us()
  math.randomseed(os.time() * 1000 + thread_id)
  -- each thread from its own point of the mix's sequence
  for _ = 1, math.random(0, math.max(0, math.floor(total_weight) - 1)) do pick_member() end
end

function request()
  ${data ? 'row = next_row()' : ''}
  local i = pick_member()
  sent[NAMES[i]] = (sent[NAMES[i]] or 0) + 1
  return REQUESTS[i]()
end
`;
}
