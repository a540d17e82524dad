import { REPORT_STYLE_HASH } from '../render/report-style.js';

/**
 * A strict policy for the served renderer: only its own scripts and styles, API calls to itself. The
 * one inline style allowed is the report style, by its hash, so the designer's preview looks exactly
 * like the HTML file (no 'unsafe-inline', and no style attributes anywhere).
 */
const DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' '${REPORT_STYLE_HASH}'`,
  // blob: only for what the page itself made from an answer (a published image previewed).
  "img-src 'self' data: blob:",
  // pdf.js draws a previewed PDF in its worker, the app's own file.
  "worker-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
];
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');
/**
 * The same policy for the page's <meta> tag, which holds under Electron's file:// too (no headers
 * there). A meta policy cannot say frame-ancestors (Chromium warns), so it leaves that to the header.
 */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
