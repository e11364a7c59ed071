import { runConformance } from '../../support/conformance-run.js';

// wire on its native core counts every conformance case right: each answer the server sent, or the failure it names
runConformance({ engine: 'wire', label: 'wire (native core)', options: { core: 'native' }, mustBeRight: true });
