import { runConformance } from '../../support/conformance-run.js';

// wire's open loop (--rate) on its native core counts every conformance case right, as its closed loop does: a few
// requests at a rate (an open loop runs no request count), each answer the server sent counted or its failure named
runConformance({
  engine: 'wire',
  label: 'wire (native core, --rate)',
  options: { core: 'native' },
  shape: { requests: undefined, rate: 40, durationSeconds: 0.1 },
  mustBeRight: true,
});
