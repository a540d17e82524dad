import { useMemo } from 'react';

/**
 * Shows the report's self-contained HTML inside the page. The markup comes from Broadsheet's own
 * HTML renderer (every value escaped, no script), and the page's CSP forbids inline script anyway.
 */
export function ReportPreview({ html }: { html: string }) {
  const body = useMemo(() => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    doc.querySelectorAll('script, style, iframe, object, embed').forEach((n) => n.remove());
    return doc.body.innerHTML;
  }, [html]);
  return <div className="report-preview" aria-label="Report preview" role="document" dangerouslySetInnerHTML={{ __html: body }} />;
}
