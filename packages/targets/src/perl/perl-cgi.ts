import { apachePerlTarget } from './apache-perl-target.js';

/** Apache mod_cgi starting perl for every request (article 000's "CGI perl/Apache"). */
export const perlCgiTarget = apachePerlTarget({
  name: 'perl-cgi',
  description: 'Apache + mod_cgi starting the Perl script for every request',
  extraProcessNames: ['index.pl'],
  module: { name: 'cgi_module', file: 'mod_cgi.so', binary: 'mod_cgi', aptPackage: 'apache2' },
  handlerDirectives: ['AddHandler cgi-script .pl'],
  cache: 'memcached',
  settings: { processPerRequest: true },
});
