import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (scripts/setup/setup-system.sh installs it); playwright-core downloads no browser of its own. */
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

/** Opens a local page from file:// and records, in `problems`, every console error, page error and request that leaves the file. */
export async function openLocalPage(browser: Browser, file: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('request', (request) => !request.url().startsWith('file:') && problems.push(`request ${request.url()}`));
  await page.goto(pathToFileURL(file).href);
  return { page, problems };
}
