/**
 * Only our own page may call the engine: the top frame loaded from the packaged renderer
 * (file://…/renderer/index.html) or, in development, the Vite dev server the main process chose.
 */
export function isTrustedSenderUrl(url: string, rendererIndexUrl: string, devServerUrl?: string): boolean {
  try {
    const u = new URL(url);
    if (devServerUrl && u.origin === new URL(devServerUrl).origin) return true;
    const expected = new URL(rendererIndexUrl);
    return u.protocol === 'file:' && u.pathname === expected.pathname;
  } catch {
    return false;
  }
}
