import path from 'node:path';
import { apachePhpCgiTarget } from './apache-php-cgi-target.js';

/** Apache mod_cgi running php-cgi for every request (article 003's CGI mode). */
export const phpCgiTarget = apachePhpCgiTarget({
  name: 'php-cgi',
  description: 'Apache + mod_cgi starting php-cgi for every request',
  module: { binary: 'mod_cgi', file: 'mod_cgi.so', aptPackage: 'apache2' },
  modules: { cgi_module: 'mod_cgi.so', actions_module: 'mod_actions.so', alias_module: 'mod_alias.so' },
  cache: 'memcached',
  directives: (dir, _site, phpCgi) => [
    // Action makes an internal redirect, which sets REDIRECT_STATUS: php-cgi's force_redirect check passes
    `ScriptAlias /bench-cgi-bin/php-cgi "${phpCgi}"`,
    `<Directory "${path.dirname(phpCgi)}">`,
    '  Require all granted',
    '</Directory>',
    'Action application/x-httpd-php-cgi /bench-cgi-bin/php-cgi',
    'DirectoryIndex index.php',
    '<FilesMatch "\\.php$">',
    '  SetHandler application/x-httpd-php-cgi',
    '</FilesMatch>',
    `SetEnv PHPRC "${dir}"`,
  ],
  settings: () => ({ processPerRequest: true }),
});
