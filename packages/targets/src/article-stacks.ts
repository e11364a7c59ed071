/**
 * Every stack article 000 names (its tables and hit parades), with the target that stands for it
 * today or why none can: `bench list --all` shows them, and suite computerra-2002 keeps the
 * published rows of those that cannot come back.
 */
export interface ArticleStack {
  readonly stack: string;
  /** The target that stands for it today. */
  readonly target?: string;
  /** Why nothing can, when no target does. */
  readonly reason?: string;
}

const WINDOWS_ONLY = 'runs on Windows only (IIS); bench runs its stacks on Linux';
const NO_FREE_RELEASE = 'no maintained free release to install';

export const article000Stacks: readonly ArticleStack[] = [
  { stack: 'mod_php/Apache', target: 'php-mod' },
  { stack: 'mod_perl/Apache, ModPerl handler, Perl CGI via Apache::Registry', target: 'perl-mod' },
  { stack: 'CGI perl/Apache', target: 'perl-cgi' },
  { stack: 'Tomcat/IBM, Tomcat/JDK1.2 (servlets)', target: 'java-tomcat' },
  { stack: 'a second servlet engine (the Resin, Orion, JRun rows)', target: 'java-jetty' },
  { stack: 'SSI Include on Apache (mod_include)', target: 'apache-ssi' },
  { stack: 'Embperl', target: 'perl-embperl' },
  { stack: 'ASP PerlScript on Apache (Apache::ASP)', target: 'perl-asp' },
  { stack: 'static HTML (the plain web server)', target: 'nginx-static' },
  { stack: 'ASP/IIS (VBScript)', reason: WINDOWS_ONLY },
  { stack: 'Resin/IIS', reason: WINDOWS_ONLY },
  { stack: 'SSI Include on IIS, ASP PerlScript on IIS', reason: WINDOWS_ONLY },
  { stack: 'Resin (its own httpd, with Apache, Resin JS pages)', reason: NO_FREE_RELEASE },
  { stack: 'Orion', reason: `${NO_FREE_RELEASE} (discontinued)` },
  { stack: 'JRun', reason: `${NO_FREE_RELEASE} (discontinued)` },
  { stack: 'ServletExec', reason: NO_FREE_RELEASE },
  { stack: 'mod_jserv (Apache JServ)', reason: 'retired by the Apache project in favour of Tomcat; no maintained release' },
  { stack: 'Jolt (Enhydra)', reason: NO_FREE_RELEASE },
  { stack: 'ASP VBScript on Apache (OpenASP)', reason: NO_FREE_RELEASE },
  { stack: 'RXML/Roxen', reason: 'Roxen has no Debian package and no maintained release bench can install' },
  { stack: 'XML/XSLT pages (Apache::ASP .19 subs and xslt)', reason: "the article gives neither the pages nor the stylesheets, and its XSLT filter's modules are not maintained" },
];
