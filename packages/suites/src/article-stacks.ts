/**
 * Every stack article 000 names, in its tables and its two quoted hit parades, with what stands
 * for it today: a bench target, or why none does. `bench list --all` prints them; `rows` are the
 * article's row labels as suites/computerra-2002/published.json spells them, so a test can check
 * that no row is left out.
 */
interface StackRows {
  /** The stack, named as the article names it. */
  readonly stack: string;
  /** The article's rows this entry accounts for. */
  readonly rows: readonly string[];
}

export type ArticleStack =
  /** A bench target stands for it. */
  | (StackRows & { readonly status: 'served'; readonly target: string; readonly note?: string })
  /** It cannot come back: why. */
  | (StackRows & { readonly status: 'out of reach'; readonly reason: string })
  /** It could come back, but no target does it yet: what it would take. */
  | (StackRows & { readonly status: 'not built'; readonly reason: string });

const WINDOWS_ONLY = 'IIS runs on Windows only; bench runs its stacks on Linux';

export const article000Stacks: readonly ArticleStack[] = [
  {
    stack: 'mod_php/Apache (mod_php 4.0b2, 3.0.11)',
    rows: ['mod_php/Apache', 'PHP (apache 1.3.6, mod_php 3.0.11)'],
    status: 'served',
    target: 'php-mod',
  },
  {
    stack: 'mod_perl/Apache, ModPerl handler (mod_perl 1.21)',
    rows: ['mod_perl/Apache', 'ModPerl Handler (apache 1.3.6, mod_perl)', 'ModPerl Handler (apache 1.3.6, mod_perl 1.21)'],
    status: 'served',
    target: 'perl-mod',
    note: 'the CGI-style script under ModPerl::Registry, not a handler of its own',
  },
  { stack: 'Perl CGI via Apache::Registry', rows: ['Perl CGI (apache 1.3.6, mod_perl/registry)'], status: 'served', target: 'perl-mod' },
  { stack: 'CGI perl/Apache', rows: ['CGI perl/Apache'], status: 'served', target: 'perl-cgi' },
  { stack: 'Tomcat (its own web server)', rows: ['Tomcat/IBM', 'Tomcat/JDK1.2'], status: 'served', target: 'java-tomcat' },
  {
    stack: 'static HTML on Apache',
    rows: ['HTML (apache 1.3.6, static_html)'],
    status: 'served',
    target: 'php-mod',
    note: "the file scenario: Apache sends the file itself; nginx-static is today's plain-server baseline",
  },
  {
    stack: 'SSI Include on Apache (mod_include)',
    rows: ['SSI Include (apache 1.3.6, mod_include)'],
    status: 'served',
    target: 'apache-ssi',
  },
  {
    stack: 'Embperl (1.2b5, 1.2b10, 1.3b2)',
    rows: [
      'Embperl (apache 1.3.6, mod_perl/embperl 1.2b10)',
      'Embperl (apache 1.3.6, mod_perl/embperl 1.3b2)',
      'Embperl (apache 1.3.6, mod_perl/embperl 1.2b5)',
    ],
    status: 'served',
    target: 'perl-embperl',
  },
  {
    stack: 'ASP PerlScript on Apache (Apache::ASP .19)',
    rows: ['ASP PerlScript (apache 1.3.6, mod_perl/asp .19)'],
    status: 'served',
    target: 'perl-asp',
    note: 'without sessions, as this row',
  },
  {
    stack: 'ASP PerlScript on Apache with sessions (Apache::ASP .19 SDBM_File, .18 DB_File)',
    rows: ['ASP PerlScript (apache 1.3.6, mod_perl/asp .19, SDBM_File)', 'ASP PerlScript (apache 1.3.6, mod_perl/asp .18, DB_File)'],
    status: 'served',
    target: 'perl-asp',
    note: 'with BENCH_ASP_SESSIONS=SDBM_File or DB_File',
  },
  {
    stack: 'Resin 1.1 with its own httpd (servlets and JSP)',
    rows: ['Resin/IBM JDK', 'Resin/JDK1.2', 'Resin/IBM', 'JSP Java (resin httpd, resin 1.1b5)'],
    status: 'served',
    target: 'java-resin',
    note: "Resin 4's own HTTP server running bench's servlets; the JSP row as a servlet",
  },
  {
    stack: 'Resin 1.1 behind Apache (mod_caucho)',
    rows: ['Resin/Apache/IBM', 'JSP Java (apache 1.3.6, resin 1.1b5)'],
    status: 'not built',
    reason:
      "Apache reaches Resin through mod_caucho, which Caucho ships only as C source in Resin's own tarball: no Debian package and nothing on Maven Central",
  },
  {
    stack: 'Resin JS (JavaScript pages on Resin 1.1, behind Apache)',
    rows: ['Resin JS/Apache/IBM'],
    status: 'out of reach',
    reason:
      'Resin 4, the release on Maven Central, has no JavaScript page engine, and the Resin releases that had one are long unmaintained',
  },
  {
    stack: 'SSI Include through Apache::ASP (.18)',
    rows: ['SSI Include (apache 1.3.6, mod_perl/asp.18/ssi_inc)'],
    status: 'not built',
    reason: 'Apache::ASP inlines included files when it compiles the page, so none is read per request as the include scenario needs',
  },
  {
    stack: 'ASP/IIS, and IIS 4.0 with static HTML, SSI Include, ASP VBScript and ASP PerlScript',
    rows: [
      'ASP/IIS',
      'HTML (iis 4.0, static_html)',
      'ASP VBScript (iis 4.0, asp/vbscript, session)',
      'SSI Include (iis 4.0, ssi_inc)',
      'ASP PerlScript (iis 4.0, asp/perlscript 522, session)',
      'ASP PerlScript (iis 4.0, asp/perlscript 522)',
    ],
    status: 'out of reach',
    reason: WINDOWS_ONLY,
  },
  { stack: 'Resin/IIS', rows: ['Resin/IIS'], status: 'out of reach', reason: `Resin behind IIS: ${WINDOWS_ONLY}` },
  {
    stack: 'ASP VBScript on Apache (OpenASP)',
    rows: ['ASP VBScript (apache 1.3.6, openasp, session)'],
    status: 'out of reach',
    reason: "OpenASP ran Windows' own VBScript engine inside Apache on Windows NT; no maintained VBScript engine runs on Linux",
  },
  {
    stack: 'Orion 0.7.6b',
    rows: ['Orion/JDK1.2'],
    status: 'out of reach',
    reason: 'commercial (IronFlare, free for development only) and no longer developed: no release bench could install',
  },
  {
    stack: 'ServletExec 2.2 on Apache',
    rows: ['ServletExec/Apache/IBM'],
    status: 'out of reach',
    reason: 'commercial (New Atlanta): no free release bench could install',
  },
  {
    stack: 'JRun 2.3 (on Apache and its own httpd)',
    rows: ['JRun/Apache/JDK1.2', 'Java Servlet (apache 1.3.6, jrun 2.3)', 'Java Servlet (jrun_httpd 2.3, jrun 2.3)'],
    status: 'out of reach',
    reason: 'commercial (Allaire, then Macromedia and Adobe) and discontinued: no free release bench could install',
  },
  {
    stack: 'mod_jserv 1.0 (Apache JServ)',
    rows: ['Java Servlet (apache 1.3.6, mod_jserv 1.0)'],
    status: 'out of reach',
    reason: 'retired by the Apache project in favour of Tomcat (java-tomcat stands in); it ran on Apache 1.3 only',
  },
  {
    stack: 'Jolt (Enhydra)',
    rows: ['Jolt (enhydra, jolt)'],
    status: 'out of reach',
    reason: "Jolt ran on Enhydra, Lutris's Java application server; neither has a maintained release nor a package bench could install",
  },
  {
    stack: 'RXML on Roxen Challenger 1.3.2',
    rows: ['RXML (roxen 1.3.2, roxen/challenger)'],
    status: 'out of reach',
    reason: 'the Roxen WebServer (GPL, in Pike) has no Debian package and no release on a registry bench installs from',
  },
  {
    stack: 'SSI Include through Apache::SSI (mod_perl)',
    rows: ['SSI Include (apache 1.3.6, mod_perl/ssi_inc)'],
    status: 'out of reach',
    reason: 'Apache::SSI (SSI parsed in Perl under mod_perl) has no Debian package, and bench takes its Perl modules from Debian',
  },
  {
    stack: 'XML/XSLT pages (Apache::ASP .19 XMLSubs and XSLT)',
    rows: ['XML, XSLT, etc. (apache 1.3.6, mod_perl/asp .19 subs)', 'XML, XSLT, etc. (apache 1.3.6, mod_perl/asp .19 xslt)'],
    status: 'out of reach',
    reason:
      "the article publishes neither the XML pages nor the stylesheets; Apache::ASP's XMLSubs and XSLT still work, but a page made up today would be another test",
  },
];

/** What stands for a stack today, in one line: the target (and how), or the status and why. */
export function describeToday(stack: ArticleStack): string {
  if (stack.status === 'served') return stack.note ? `${stack.target} (${stack.note})` : stack.target;
  return `${stack.status}: ${stack.reason}`;
}
