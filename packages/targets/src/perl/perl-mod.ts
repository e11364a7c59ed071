import { apachePerlTarget } from './apache-perl-target.js';

/** Apache prefork + mod_perl2, the CGI-style script run by ModPerl::Registry (article 000). */
export const perlModTarget = apachePerlTarget({
  name: 'perl-mod',
  description: 'Apache prefork + mod_perl2 (ModPerl::Registry)',
  module: { name: 'perl_module', file: 'mod_perl.so', binary: 'mod_perl', aptPackage: 'libapache2-mod-perl2' },
  handlerDirectives: [
    '<FilesMatch "\\.pl$">',
    '  SetHandler perl-script',
    '  PerlResponseHandler ModPerl::Registry',
    '  PerlOptions +ParseHeaders',
    '</FilesMatch>',
  ],
  cache: 'process',
  settings: { handler: 'ModPerl::Registry' },
});
