// The structure rules `npm run structure:check` holds the code to (dependency-cruiser): no import cycle, and no import
// that runs back up the packages' floors: core at the bottom; engines, targets, services, history, compare, suites
// and scenarios on core alone; reporters on those; the runner on top, imported by nothing.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'resolvable',
      comment: 'an import that does not resolve hides its arrow from every rule here: build first (npm run build)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-cycle',
      comment: 'a cycle ties its files into one piece that can only change as a whole',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-stands-alone',
      comment: 'core holds the contracts every other package builds on; it imports none of them',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^packages/(?!core/)[^/]+/' },
    },
    {
      name: 'plugins-build-on-core',
      comment: 'engines, targets, services, history, compare, suites and scenarios import core and themselves only',
      severity: 'error',
      from: { path: '^packages/(engines|targets|services|history|compare|suites|scenarios)/' },
      to: { path: '^packages/(engines|targets|services|history|compare|suites|scenarios|reporters|runner)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'hosts-on-services',
      comment: 'hosts start the services and the targets they are given on another machine: they import core and services only',
      severity: 'error',
      from: { path: '^packages/hosts/' },
      to: { path: '^packages/(engines|targets|history|compare|reporters|runner|suites|scenarios)/' },
    },
    {
      name: 'reporters-below-the-runner',
      comment: 'reporters render what the others produce; they start nothing',
      severity: 'error',
      from: { path: '^packages/reporters/' },
      to: { path: '^packages/(runner|engines|targets|services|hosts)/' },
    },
    {
      name: 'the-runner-on-top',
      comment: 'the runner drives everything; nothing imports it',
      severity: 'error',
      from: { path: '^packages/(?!runner/)[^/]+/' },
      to: { path: '^packages/runner/' },
    },
  ],
  options: {
    // a package's own files are read; another package is reached through its built entry point, and not read further
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: ['\\.test\\.ts$', 'test-fixtures/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'], extensions: ['.ts', '.js', '.mjs'] },
    reporterOptions: {
      archi: { collapsePattern: '^packages/[^/]+/' },
      text: { highlightFocused: true },
    },
  },
};
