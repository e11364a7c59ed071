import type { TargetPlugin } from '@bench/core';
import { phpCgiTarget } from './php-cgi.js';
import { phpFcgidTarget } from './php-fcgid.js';
import { phpCliServerTarget } from './php-cli-server.js';
import { phpFpmTarget } from './php-fpm.js';
import { phpModTarget } from './php-mod.js';

export const phpTargets: readonly TargetPlugin[] = [phpFpmTarget, phpModTarget, phpFcgidTarget, phpCgiTarget, phpCliServerTarget];
