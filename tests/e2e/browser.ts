import { chromium, type Browser } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = join(__dirname, '..', 'artifacts');
export const RENDERER_DIR = join(__dirname, '..', '..', 'dist', 'renderer');

/**
 * Debian's Chromium, headless, with the flags this closed network needs (no background connections).
 * Playwright gives each launch a fresh, empty profile of its own.
 */
/** Starts Chromium; `extra` adds flags and environment (Windows sign-in: its Kerberos setup). */
export async function launchChromium(extra: { args?: string[]; env?: Record<string, string> } = {}): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`Chromium not found at ${executablePath}; install Debian's chromium package`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(extra.args ?? []),
    ],
    ...(extra.env && { env: { ...process.env, ...extra.env } as Record<string, string> }),
  });
}
