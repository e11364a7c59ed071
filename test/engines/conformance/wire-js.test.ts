import { runConformance } from '../../support/conformance-run.js';

// wire on its js core counts every conformance case right: each answer the server sent, or the failure it names
runConformance({ engine: 'wire', label: 'wire (js core)', options: { core: 'js' }, mustBeRight: true });
