import { useCallback, useEffect, useState } from 'react';
import { useProjectAccess } from '../../hooks/useProjectAccess';
import { downloadFile, invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { selectDirty, useDraft, type Draft } from '../../stores/designer/draft.store';
import { toastFailed, toastSucceeded } from '../../stores/feedback/toasts';
import type { AppInfo } from './BlockEditor';
import { BlockList } from './BlockList';
import { placeBlockErrors, withBlockNumbers, type BlockErrors } from './block-errors';
import { DesignerDataPanel } from './DesignerDataPanel';
import { draftRequest } from './draft-request';
import { PreviewPane } from './PreviewPane';
import { TemplatePanel } from './TemplatePanel';
import { useUndoKeys } from '../../hooks/useUndoKeys';
import { useUnsavedGuard } from '../../hooks/useUnsavedGuard';

type Report = ResultOf<'app.reports.get'>;
type Connection = ResultOf<'app.connections.list'>[number];
type Filter = { id: string; name: string };

const draftOf = (r: Report): Draft => ({
  blocks: r.document.blocks,
  connectionId: r.connectionId,
  filterIds: r.filterIds,
  isIteration: r.isIteration,
  iterationFieldId: r.iterationFields[0]?.fieldID ?? '',
  separator: r.dynamicNameSeparator ?? ' - ',
});
const NO_ERRORS: BlockErrors = { byBlock: {}, other: [] };

/**
 * The report designer. Everything it changes is a draft (blocks, data, filters, iteration) with
 * undo and redo, saved by one Save; leaving or reloading with unsaved changes asks first.
 */
export function ReportDesigner({
  reportId,
  projectId,
  connections,
  filters,
  onBack,
}: {
  reportId: string;
  projectId: string;
  connections: Connection[];
  filters: Filter[];
  onBack: () => void;
}) {
  const [report, setReport] = useState<Report | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [app, setApp] = useState<AppInfo | null>(null);
  const [format, setFormat] = useState('');
  const [errors, setErrors] = useState<BlockErrors>(NO_ERRORS);
  const [working, setWorking] = useState<string | null>(null);
  const draft = useDraft((s) => (s.ownerId === reportId ? s.draft : null));
  const dirty = useDraft(selectDirty);
  const canUndo = useDraft((s) => s.past.length > 0);
  const canRedo = useDraft((s) => s.future.length > 0);
  const { draftLoaded, draftSaved, undoRequested, redoRequested } = useDraft.getState();
  useUndoKeys(useDraft);
  useUnsavedGuard(dirty, report ? `“${report.name}”` : 'this report');
  // What this person may do to the report, as the engine's checks answer it; until it answers, as before.
  const may = useProjectAccess(projectId, report?.modifiedDate);
  const mayEdit = may('report', reportId, 'app.reports.saveDocument') !== false;
  const mayGenerate = may('report', reportId, 'v2.reports.generate') !== false;

  useEffect(() => {
    void (async () => {
      const a = await invoke('app.reports.get', { params: { id: reportId } });
      if (!a.ok) return setLoadError(a.error ?? 'The report could not be opened.');
      setReport(a.data);
      setFormat(a.data.outputFormats[0]);
      draftLoaded(reportId, draftOf(a.data));
    })();
  }, [reportId, draftLoaded]);

  // The app behind the draft's connection: its fields, charts and variables for the editors.
  const connectionId = draft?.connectionId ?? null;
  useEffect(() => {
    const conn = connections.find((c) => c.id === connectionId);
    if (!conn) return setApp(null);
    void invoke('app.analytics.get', { params: { id: conn.analyticsAppId } }).then((m) => setApp(m.ok ? m.data : null));
  }, [connectionId, connections]);

  const save = useCallback(async (): Promise<boolean> => {
    const d = useDraft.getState().draft;
    if (!d || !report) return false;
    const field = app?.fields.find((f) => f.id === d.iterationFieldId);
    setWorking('Saving…');
    const a = await invoke('app.reports.saveDocument', {
      params: { id: reportId },
      body: {
        ...draftRequest(d),
        dynamicNameSeparator: d.separator,
        ...(field
          ? {
              dynamicNames: [
                { itemType: 'ReportName', value: '', order: 0, variableAnalyticsAppID: null },
                { itemType: 'FieldValue', value: field.name, order: 1, variableAnalyticsAppID: null },
              ],
            }
          : {}),
      },
    });
    setWorking(null);
    if (!a.ok) {
      const placed = placeBlockErrors(a.errorDetails, d.blocks);
      setErrors(placed);
      toastFailed(`Not saved. ${withBlockNumbers(placed.other[0] ?? a.error ?? '')}`.trim());
      return false;
    }
    setErrors(NO_ERRORS);
    setReport({ ...report, ...a.data });
    draftSaved(d);
    toastSucceeded('Saved.');
    return true;
  }, [app, report, reportId, draftSaved]);

  const uploaded = useCallback(
    (r: Partial<Report>) => setReport((before) => (before ? { ...before, ...r } : before)),
    [],
  );

  const generate = async () => {
    if (dirty && !(await save())) return;
    setWorking(`Generating ${format}…`);
    const r = await downloadFile('v2.reports.generate', {
      params: { id: reportId },
      query: { outputFormat: format },
      body: {},
    });
    setWorking(null);
    if (r.ok) toastSucceeded(`Downloaded ${r.fileName}.`);
    else toastFailed(withBlockNumbers(r.error ?? 'The report could not be generated.'));
  };

  if (loadError)
    return (
      <div className="error-banner" role="alert">
        {loadError}
      </div>
    );
  if (!report || !draft)
    return (
      <p className="empty" aria-busy="true">
        Loading…
      </p>
    );
  const formats = [
    ...report.outputFormats,
    ...(!report.templateFile && draft.blocks.some((b) => b.type === 'chart') ? ['Png'] : []),
  ];

  return (
    <section className="screen designer">
      <header className="screen-head">
        <div>
          <button type="button" className="crumb" onClick={onBack}>
            ← Project
          </button>
          <h1>
            {report.name} <span className="badge">{report.type}</span>
          </h1>
          {!mayEdit && (
            <p className="hint" id="report-view-only">
              You may view this report and its preview, not change it{mayGenerate ? '' : ' or make its files'}.
            </p>
          )}
        </div>
        <div className="head-actions">
          {mayEdit && (
            <>
              <button
                type="button"
                onClick={undoRequested}
                disabled={!canUndo}
                aria-keyshortcuts="Control+Z"
                title="Undo (Ctrl+Z)"
              >
                Undo
              </button>
              <button
                type="button"
                onClick={redoRequested}
                disabled={!canRedo}
                aria-keyshortcuts="Control+Shift+Z"
                title="Redo (Ctrl+Shift+Z)"
              >
                Redo
              </button>
              <button
                type="button"
                className="primary"
                onClick={() => void save()}
                disabled={!dirty || working !== null}
              >
                {dirty ? 'Save' : 'Saved'}
              </button>
            </>
          )}
          {mayGenerate && (
            <>
              <label htmlFor="out-format" className="sr-only">
                Output format
              </label>
              <select id="out-format" value={format} onChange={(e) => setFormat(e.target.value)}>
                {formats.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
              <button type="button" onClick={() => void generate()} disabled={working !== null}>
                Generate and download
              </button>
            </>
          )}
        </div>
      </header>
      {working && (
        <p className="status-line" role="status">
          {working}
        </p>
      )}
      {errors.other.length > 0 && (
        <div className="form-summary" role="alert">
          <ul>
            {errors.other.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="designer-grid">
        {/* Shown, not offered, to someone who may only view: every field and button of the draft is off. */}
        <fieldset
          className="blocks plain"
          disabled={!mayEdit}
          aria-describedby={mayEdit ? undefined : 'report-view-only'}
        >
          <legend className="sr-only">The report's data and content</legend>
          <DesignerDataPanel draft={draft} app={app} connections={connections} filters={filters} />
          {report.templateFile ? (
            <TemplatePanel report={report} onUploaded={uploaded} />
          ) : (
            <BlockList blocks={draft.blocks} app={app} errors={errors.byBlock} />
          )}
        </fieldset>
        <PreviewPane
          reportId={reportId}
          draft={draft}
          refreshKey={report.template?.version}
          asSaved={may('report', reportId, 'app.reports.saveDocument') !== true}
        />
      </div>
    </section>
  );
}
