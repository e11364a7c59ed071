import type { TargetPlugin } from '@bench/core';
import { perlCgiTarget } from './perl-cgi.js';
import { perlFcgiTarget } from './perl-fcgi.js';
import { perlModTarget } from './perl-mod.js';
import { perlEmbperlTarget } from './perl-embperl.js';
import { perlAspTarget } from './perl-asp.js';

export const perlTargets: readonly TargetPlugin[] = [perlModTarget, perlFcgiTarget, perlCgiTarget, perlEmbperlTarget, perlAspTarget];
