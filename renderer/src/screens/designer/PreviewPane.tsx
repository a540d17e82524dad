import { useEffect, useMemo, useRef, useState } from 'react';
import { invoke } from '../../bridge';
import type { Draft } from '../../stores/designer/draft.store';
import { withBlockNumbers } from './block-errors';
import { draftRequest } from './draft-request';
import { ReportPreview } from './ReportPreview';

/** How many matching values the picker lists; the search box finds the rest. */
const SHOWN = 200;
const key = (v: string[]) => v.join(' · ');

/**
 * The preview of the draft as the output file looks. An iterating report shows one value's file:
 * the first, or the one picked from a searchable list of every value. A template report's preview is
 * its filled file, made again when a new version of the file arrives (`refreshKey`).
 */
export function PreviewPane({
  reportId,
  draft,
  refreshKey,
  asSaved = false,
}: {
  reportId: string;
  draft: Draft;
  refreshKey?: unknown;
  /** The saved report, not the draft: for someone not known to be allowed to change it (previewing a draft is editing). */
  asSaved?: boolean;
}) {
  const [html, setHtml] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [values, setValues] = useState<string[][]>([]);
  const [picked, setPicked] = useState<string[] | null>(null);
  const [shown, setShown] = useState<string[] | null>(null);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Another iteration field has other values: start again from its first.
  useEffect(() => setPicked(null), [draft.iterationFieldId]);

  // Follows the draft a moment after the last keystroke; a later answer replaces an earlier one only.
  useEffect(() => {
    let current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      setBusy(true);
      const a = await invoke('app.reports.preview', {
        params: { id: reportId },
        body: { ...(asSaved ? {} : draftRequest(draft)), ...(picked ? { iterationValue: picked } : {}) },
      });
      if (!current) return;
      setBusy(false);
      if (!a.ok) return setError(withBlockNumbers(a.error ?? 'The preview could not be made.'));
      setError(null);
      setWarning(a.data.warning);
      setHtml(a.data.html);
      setValues(a.data.iterating ? a.data.iterationValues : []);
      setShown(a.data.iterationValue);
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer.current);
    };
  }, [reportId, draft, picked, refreshKey, asSaved]);

  const matching = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (q ? values.filter((v) => key(v).toLowerCase().includes(q)) : values).slice(0, SHOWN);
  }, [values, search]);

  return (
    <div className="preview-pane" aria-busy={busy}>
      <div className="preview-head">
        <h2>Preview</h2>
        {draft.isIteration && values.length > 0 && (
          <div className="iteration-pick">
            <label htmlFor="pv-search">Find a value</label>
            <input
              id="pv-search"
              type="search"
              value={search}
              placeholder={`${values.length} values`}
              onChange={(e) => setSearch(e.target.value)}
            />
            <label htmlFor="pv-value">Previewing</label>
            <select
              id="pv-value"
              value={shown ? key(shown) : ''}
              onChange={(e) => setPicked(values.find((v) => key(v) === e.target.value) ?? null)}
            >
              {shown && !matching.some((v) => key(v) === key(shown)) && (
                <option value={key(shown)}>{key(shown)}</option>
              )}
              {matching.map((v) => (
                <option key={key(v)} value={key(v)}>
                  {key(v)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {error && (
        <div className="error-banner" role="alert">
          {error}
        </div>
      )}
      {!error && warning && (
        <p className="warning-banner" role="status">
          {warning}
        </p>
      )}
      {busy && (
        <p className="working" role="status">
          <span className="spinner" aria-hidden="true" />
          {html ? 'Bringing the preview up to date…' : 'Making the preview from the data…'}
        </p>
      )}
      <ReportPreview html={html} />
    </div>
  );
}
