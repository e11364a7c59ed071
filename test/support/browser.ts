import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (scripts/setup-system.sh installs it); playwright-core downloads no browser of its own. */
export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Chromium that reaches no network: flags that stop its background calls home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
