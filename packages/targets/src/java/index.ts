import type { TargetPlugin } from '@bench/core';
import { javaJettyTarget } from './jetty.js';
import { javaResinTarget } from './resin.js';
import { javaTomcatTarget } from './tomcat.js';

export const javaTargets: readonly TargetPlugin[] = [javaTomcatTarget, javaJettyTarget, javaResinTarget];
