import { useEffect, useRef, useState } from 'react';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

const MAX_PAGES = 5;

/**
 * A PDF drawn in the page with pdf.js, its first pages as canvases: the same everywhere (Electron's
 * sandboxed window has no PDF plugin to lean on), no plugin, no script from the document run, and
 * nothing fetched (the bytes are already here; the worker is the app's own file).
 */
export function PdfPreview({ data, title }: { data: Uint8Array; title: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ pages: number; shown: number } | { error: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | null = null;
    void (async () => {
      try {
        // Loaded on the first preview only.
        const pdfjs = await import('pdfjs-dist');
        pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
        const task = pdfjs.getDocument({
          data: data.slice(),
          isEvalSupported: false,
          useSystemFonts: true,
          enableXfa: false,
          stopAtErrors: false,
        });
        destroy = () => task.destroy();
        const doc = await task.promise;
        const shown = Math.min(doc.numPages, MAX_PAGES);
        for (let n = 1; n <= shown && !cancelled; n++) {
          const page = await doc.getPage(n);
          const viewport = page.getViewport({ scale: 1.4 });
          const canvas = document.createElement('canvas');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          canvas.className = 'pdf-page';
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', `${title}, page ${n} of ${doc.numPages}`);
          await page.render({ canvasContext: canvas.getContext('2d')!, viewport }).promise;
          if (!cancelled) holder.current?.appendChild(canvas);
        }
        if (!cancelled) setState({ pages: doc.numPages, shown });
      } catch (e) {
        if (!cancelled) setState({ error: (e as Error).message });
      }
    })();
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [data, title]);
  return (
    <div className="pdf-preview" tabIndex={0} aria-label={`Preview of ${title}`} aria-busy={state === null}>
      {state === null && <p className="empty">Drawing the pages…</p>}
      {state && 'error' in state && (
        <p className="error-banner" role="alert">
          This PDF cannot be shown here ({state.error}); download it instead.
        </p>
      )}
      <div ref={holder} />
      {state && 'pages' in state && state.pages > state.shown && (
        <p className="empty">
          The first {state.shown} of {state.pages} pages; download the file for all of them.
        </p>
      )}
    </div>
  );
}
