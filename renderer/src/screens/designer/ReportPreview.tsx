import { useEffect, useRef } from 'react';

/**
 * Shows the report's HTML file inside the page, as the file itself looks: its markup and its one
 * style, in a shadow root so neither touches the app. The markup comes from Broadsheet's own HTML
 * renderer (every value escaped, no script, no style attributes); the page's CSP allows that style by
 * its hash and nothing else inline.
 */
export function ReportPreview({ html }: { html: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const page = doc.querySelector('.report-page');
    doc.querySelectorAll('script, iframe, object, embed').forEach((n) => n.remove());
    doc.querySelectorAll('[style]').forEach((n) => n.removeAttribute('style'));
    const css = doc.querySelector('head style')?.textContent;
    const style = css ? [Object.assign(document.createElement('style'), { textContent: css })] : [];
    root.replaceChildren(...style, ...(page ? [document.importNode(page, true)] : []));
  }, [html]);
  // Focusable, so a keyboard can scroll a long preview.
  return <div ref={host} className="report-preview" aria-label="Report preview" role="document" tabIndex={0} />;
}
