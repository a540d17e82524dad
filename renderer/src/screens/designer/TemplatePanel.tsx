import { useEffect, useMemo, useState } from 'react';
import { downloadFile, invoke, isDesktop, type FieldError } from '../../bridge';
import { onEngineEvent } from '../../engine-events';
import type { ResultOf } from '../../../../engine/catalogue';
import { readFile } from '../../components/file-input';
import { toastFailed, toastSucceeded } from '../../stores/feedback/toasts';

type Report = ResultOf<'app.reports.get'>;
type Items = ResultOf<'app.reports.templateItems'>;
type Item = Items['nodes'][number]['objects'][number];
interface Checked {
  tags: { tag: string; where: string }[];
}

const ACCEPT: Record<string, string> = { Word: '.docx', Excel: '.xlsx', PowerPoint: '.pptx', Html: '.html,.htm' };
const OFFICE_APP: Record<string, string> = {
  Word: 'Word',
  Excel: 'Excel',
  PowerPoint: 'PowerPoint',
  Html: 'the browser',
};
const kib = (n: number) =>
  n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** A template's problems as the designer reads them: where, then what. */
export function TemplateProblems({ problems }: { problems: FieldError[] }) {
  if (!problems.length) return null;
  return (
    <div className="form-summary" role="alert">
      <p>
        {problems.length === 1 ? 'One tag needs fixing' : `${problems.length} tags need fixing`}; nothing was saved.
      </p>
      <ul className="template-problems">
        {problems.map((p, i) => (
          <li key={i}>
            <span className="where">{p.field.replace(/^templateFile:/, '')}</span> {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Every item of the palette with its sub-items (columns under tables, tables under sheets), flattened for search. */
function flatten(items: Item[], depth = 0): { item: Item; depth: number }[] {
  return items.flatMap((item) => [{ item, depth }, ...flatten((item.objects ?? []) as Item[], depth + 1)]);
}

/**
 * A template report's side of the designer: its file (download, upload a new version checked
 * before saving, open in Office on the desktop) and the palette of tags to paste into it.
 */
export function TemplatePanel({ report, onUploaded }: { report: Report; onUploaded: (r: Partial<Report>) => void }) {
  const [items, setItems] = useState<Items | null>(null);
  const [problems, setProblems] = useState<FieldError[]>([]);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const template = report.template;

  useEffect(() => {
    void invoke('app.reports.templateItems', { params: { id: report.id } }).then((a) => setItems(a.ok ? a.data : null));
  }, [report.id, report.connectionId]);

  // On the desktop, saves in Office come back as new versions (or their problems).
  useEffect(
    () =>
      onEngineEvent('template.synced', (e) => {
        if (e.reportId !== report.id) return;
        setProblems(e.ok ? [] : e.problems);
        if (e.ok) {
          toastSucceeded(e.message);
          void invoke('app.reports.get', { params: { id: report.id } }).then((a) => a.ok && onUploaded(a.data));
        } else toastFailed(e.message);
      }),
    [report.id, onUploaded],
  );

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(`Checking ${file.name}…`);
    const content = await readFile(file, 'base64');
    const a = await invoke('app.reports.uploadTemplate', {
      params: { id: report.id },
      body: { fileName: file.name, content, encoding: 'base64' },
    });
    setBusy(null);
    if (!a.ok) {
      setChecked(null);
      setProblems(
        a.errorDetails.length ? a.errorDetails : [{ field: file.name, message: a.error ?? 'The file was refused' }],
      );
      return toastFailed(a.error ?? 'The template was refused.');
    }
    setProblems([]);
    setChecked({ tags: a.data.tags });
    onUploaded(a.data);
    toastSucceeded(`Version ${a.data.template.version} saved: ${a.data.tags.length} tags checked.`);
  };

  const openInOffice = async () => {
    const answer = await window.broadsheet!.openTemplate(report.id);
    if (answer.status !== 200) toastFailed(answer.envelope.error ?? 'The template could not be opened.');
    else toastSucceeded(`Opened in ${OFFICE_APP[report.type]}. Each save there becomes a new version here.`);
  };

  const copy = async (tag: string) => {
    await navigator.clipboard?.writeText(tag).catch(() => undefined);
    toastSucceeded(`Copied ${tag}`);
  };

  const palette = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (items?.nodes ?? [])
      .map((node) => ({
        node,
        rows: flatten(node.objects as Item[]).filter(
          ({ item }) => !q || item.title.toLowerCase().includes(q) || item.itemID.toLowerCase().includes(q),
        ),
      }))
      .filter((g) => g.rows.length);
  }, [items, search]);

  return (
    <div className="template-panel">
      <section className="panel" aria-labelledby="tpl-file">
        <h2 id="tpl-file">Template file</h2>
        {template ? (
          <p className="template-file">
            <strong>{template.fileName}</strong> · version {template.version} · {kib(template.size)} · saved{' '}
            {new Date(template.modifiedDate).toLocaleString()}
          </p>
        ) : (
          <p className="empty">No file yet.</p>
        )}
        <div className="row-actions">
          <button
            type="button"
            onClick={() => void downloadFile('app.reports.downloadTemplate', { params: { id: report.id } })}
          >
            Download template
          </button>
          {isDesktop() && (
            <button type="button" onClick={() => void openInOffice()}>
              Open in {OFFICE_APP[report.type]}
            </button>
          )}
          <label className="file-button">
            Upload a new version
            <input
              type="file"
              accept={ACCEPT[report.type]}
              onChange={(e) => void upload(e.target.files?.[0])}
              disabled={busy !== null}
            />
          </label>
        </div>
        {busy && (
          <p className="status-line" role="status">
            {busy}
          </p>
        )}
        <TemplateProblems problems={problems} />
        {checked && (
          <details className="checked-tags" open>
            <summary>{checked.tags.length} tags checked against the app</summary>
            <ul>
              {checked.tags.map((t, i) => (
                <li key={i}>
                  <code>{t.tag}</code> <span className="where">{t.where}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
      <section className="panel" aria-labelledby="tpl-palette">
        <h2 id="tpl-palette">Tags to paste</h2>
        <label htmlFor="tpl-search" className="sr-only">
          Find a tag
        </label>
        <input
          id="tpl-search"
          type="search"
          placeholder="Find a field, chart, variable…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {!items && <p className="empty">Connect the report to an app to see its tags.</p>}
        {palette.map(({ node, rows }) => (
          <div key={node.type} className="palette-group">
            <h3>{node.name}</h3>
            <ul>
              {rows.map(({ item, depth }) => (
                <li key={item.id} style={{ paddingLeft: depth * 14 }}>
                  <span className="palette-title">{item.title}</span>
                  {item.itemID ? (
                    <>
                      <code>{item.itemID}</code>
                      <button
                        type="button"
                        className="small"
                        aria-label={`Copy ${item.itemID}`}
                        onClick={() => void copy(item.itemID)}
                      >
                        Copy
                      </button>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
    </div>
  );
}
