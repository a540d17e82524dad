import { useCallback, useEffect, useRef, useState } from 'react';
import { downloadFile, invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import type { DocBlock, ReportDocument } from '../../../../engine/render/document';
import { BlockEditor, type AppInfo, type Block, type BlockType } from './BlockEditor';
import { ReportPreview } from './ReportPreview';

type Report = ResultOf<'app.reports.get'>;
type Connection = ResultOf<'app.connections.list'>[number];
type Filter = { id: string; name: string };

const NEW_BLOCK: { [T in BlockType]: () => Omit<Extract<Block, { type: T }>, 'id'> } = {
  heading: () => ({ type: 'heading', text: 'Heading', level: 2 }),
  text: () => ({ type: 'text', text: '' }),
  kpi: () => ({ type: 'kpi', label: 'Total', expression: 'Sum(Sales)' }),
  table: () => ({ type: 'table' }),
  chart: () => ({ type: 'chart' }),
  image: () => ({ type: 'image' }),
  break: () => ({ type: 'break' }),
};
const BLOCK_TYPES = Object.keys(NEW_BLOCK) as BlockType[];
const LABEL: Record<BlockType, string> = { heading: 'Heading', text: 'Text', kpi: 'KPI', table: 'Table', chart: 'Chart', image: 'Picture', break: 'Page break' };
/** Drafts may still miss fields: the engine checks the document and names what is missing. */
const asDocument = (doc: ReportDocument, blocks: Block[]): ReportDocument => ({ ...doc, blocks: blocks as DocBlock[] });
let counter = 0;
const newId = () => `b${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The report designer: blocks in order, each edited in place, with a live preview and generation. */
export function ReportDesigner({ reportId, connections, filters, onBack }: { reportId: string; projectId: string; connections: Connection[]; filters: Filter[]; onBack: () => void }) {
  const [report, setReport] = useState<Report | null>(null);
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [app, setApp] = useState<AppInfo | null>(null);
  const [preview, setPreview] = useState<string>('');
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [dirty, setDirty] = useState(false);
  const [format, setFormat] = useState('');
  const [adding, setAdding] = useState<BlockType>('kpi');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = useCallback(async () => {
    const a = await invoke('app.reports.get', { params: { id: reportId } });
    if (!a.ok) return setMessage({ ok: false, text: a.error ?? 'Not found' });
    const r = a.data;
    setReport(r);
    setBlocks(r.document.blocks);
    setFormat((f) => f || r.outputFormats[0]);
    const conn = connections.find((c) => c.id === r.connectionId);
    if (conn) {
      const m = await invoke('app.analytics.get', { params: { id: conn.analyticsAppId } });
      if (m.ok) setApp(m.data);
    }
  }, [reportId, connections]);
  useEffect(() => void load(), [load]);

  // The preview follows the blocks being edited, a moment after the last keystroke.
  useEffect(() => {
    if (!report) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const a = await invoke('app.reports.preview', { params: { id: reportId }, body: { document: asDocument(report.document, blocks) } });
      if (a.ok) {
        setPreview(a.data.html);
        setPreviewError(null);
      } else setPreviewError(a.error);
    }, 500);
    return () => clearTimeout(timer.current);
  }, [blocks, report, reportId]);

  if (!report) return message ? <div className="error-banner" role="alert">{message.text}</div> : <p className="empty">Loading…</p>;

  const edit = (next: Block[]) => {
    setBlocks(next);
    setDirty(true);
  };
  const move = (i: number, by: number) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(Math.max(0, Math.min(next.length, i + by)), 0, b);
    edit(next);
  };
  const save = async (extra: { connectionId?: string | null; filterIds?: string[] } = {}) => {
    const a = await invoke('app.reports.saveDocument', { params: { id: reportId }, body: { document: asDocument(report.document, blocks), ...extra } });
    setMessage(a.ok ? { ok: true, text: 'Saved.' } : { ok: false, text: a.error ?? 'Not saved' });
    if (a.ok) {
      setDirty(false);
      setReport({ ...report, ...a.data });
    }
    return a.ok;
  };
  const saveIteration = async (isIteration: boolean, fieldID: string, separator: string) => {
    const field = app?.fields.find((f) => f.id === fieldID);
    const a = await invoke('v2.reports.update', {
      params: { id: reportId },
      body: {
        name: report.name, isIteration, iterationFields: fieldID ? [{ fieldID, order: 0 }] : [], dynamicNameSeparator: separator,
        dynamicNames: field ? [{ itemType: 'ReportName', value: '', order: 0 }, { itemType: 'FieldValue', value: field.name, order: 1 }] : [],
      },
    });
    setMessage(a.ok ? { ok: true, text: 'Iteration saved.' } : { ok: false, text: a.error ?? 'Not saved' });
    if (a.ok) setReport({ ...report, ...a.data });
  };
  const generate = async () => {
    if (dirty && !(await save())) return;
    setMessage({ ok: true, text: `Generating ${format}…` });
    const r = await downloadFile('v2.reports.generate', { params: { id: reportId }, query: { outputFormat: format }, body: {} });
    setMessage(r.ok ? { ok: true, text: `Downloaded ${r.fileName}.` } : { ok: false, text: r.error ?? 'Failed' });
  };
  const iterField = report.iterationFields[0]?.fieldID ?? '';
  const formats = [...report.outputFormats, ...(blocks.some((b) => b.type === 'chart') ? ['Png'] : [])];

  return (
    <section className="screen designer">
      <header className="screen-head">
        <div>
          <button type="button" className="crumb" onClick={onBack}>← Project</button>
          <h1>{report.name} <span className="badge">{report.type}</span></h1>
        </div>
        <div className="head-actions">
          <button type="button" className="primary" onClick={() => void save()} disabled={!dirty}>{dirty ? 'Save' : 'Saved'}</button>
          <label htmlFor="out-format" className="sr-only">Output format</label>
          <select id="out-format" value={format} onChange={(e) => setFormat(e.target.value)}>
            {formats.map((f) => <option key={f} value={f}>{f}</option>)}
          </select>
          <button type="button" onClick={() => void generate()}>Generate and download</button>
        </div>
      </header>
      {message && <div className={message.ok ? 'notice' : 'error-banner'} role={message.ok ? 'status' : 'alert'}>{message.text}</div>}
      <div className="designer-grid">
        <div className="blocks">
          <div className="panel">
            <h2>Data</h2>
            <label htmlFor="conn">Connection</label>
            <select id="conn" value={report.connectionId ?? ''} onChange={(e) => void save({ connectionId: e.target.value || null }).then(load)}>
              <option value="">—</option>
              {connections.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
            </select>
            <fieldset className="filters-pick">
              <legend>Filters applied</legend>
              {filters.map((f) => (
                <label key={f.id} className="chip">
                  <input type="checkbox" checked={report.filterIds.includes(f.id)} onChange={(e) => void save({ filterIds: e.target.checked ? [...report.filterIds, f.id] : report.filterIds.filter((x) => x !== f.id) })} />
                  {f.name}
                </label>
              ))}
              {!filters.length && <small className="hint">The project has no filters.</small>}
            </fieldset>
            <h2 className="spaced">Iteration</h2>
            <label className="check-line">
              <input type="checkbox" checked={report.isIteration} onChange={(e) => void saveIteration(e.target.checked, iterField || (app?.fields.find((f) => f.type === 'text')?.id ?? ''), report.dynamicNameSeparator ?? ' - ')} />
              One file per value of
            </label>
            <select aria-label="Iteration field" value={iterField} onChange={(e) => void saveIteration(report.isIteration, e.target.value, report.dynamicNameSeparator ?? ' - ')}>
              <option value="">—</option>
              {app?.fields.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
            </select>
            <label htmlFor="sep">File name separator</label>
            <input id="sep" defaultValue={report.dynamicNameSeparator ?? ' - '} onBlur={(e) => void saveIteration(report.isIteration, iterField, e.target.value)} />
            <small className="hint">Files are named: report name{report.dynamicNameSeparator ?? ' - '}value.</small>
          </div>
          {blocks.map((b, i) => (
            <div key={b.id} className="panel block" data-block-type={b.type}>
              <div className="block-head">
                <strong>{LABEL[b.type]}</strong>
                <span>
                  <button type="button" className="small" aria-label={`Move ${LABEL[b.type]} up`} onClick={() => move(i, -1)} disabled={i === 0}>↑</button>
                  <button type="button" className="small" aria-label={`Move ${LABEL[b.type]} down`} onClick={() => move(i, 1)} disabled={i === blocks.length - 1}>↓</button>
                  <button type="button" className="small danger" aria-label={`Remove ${LABEL[b.type]}`} onClick={() => edit(blocks.filter((x) => x.id !== b.id))}>×</button>
                </span>
              </div>
              <BlockEditor block={b} app={app} change={(nb) => edit(blocks.map((x) => (x.id === b.id ? nb : x)))} />
            </div>
          ))}
          <div className="inline-form">
            <label htmlFor="add-block">Add</label>
            <select id="add-block" value={adding} onChange={(e) => setAdding(BLOCK_TYPES.find((t) => t === e.target.value) ?? 'kpi')}>
              {BLOCK_TYPES.map((t) => <option key={t} value={t}>{LABEL[t]}</option>)}
            </select>
            <button type="button" className="primary" onClick={() => edit([...blocks, { id: newId(), ...NEW_BLOCK[adding]() } as Block])}>Add block</button>
          </div>
        </div>
        <div className="preview-pane">
          <h2>Preview</h2>
          {previewError && <div className="error-banner" role="alert">{previewError}</div>}
          <ReportPreview html={preview} />
        </div>
      </div>
    </section>
  );
}
