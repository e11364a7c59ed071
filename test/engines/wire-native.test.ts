import { wireSuite } from '../support/wire-suite.js';

wireSuite('native');
