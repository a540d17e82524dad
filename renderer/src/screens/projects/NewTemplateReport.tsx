import { useState } from 'react';
import { invoke, type FieldError } from '../../bridge';
import { readFile } from '../../components/file-input';
import { REPORT_TYPES } from '../../../../engine/wire';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { TemplateProblems } from '../designer/TemplatePanel';

/**
 * A report from the designer's own Word, Excel, PowerPoint or HTML file (its tags checked before
 * anything is saved), or from a starter file the app writes from the project's app.
 */
export function NewTemplateReport({ projectId, onCreated }: { projectId: string; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [starter, setStarter] = useState<string>('Excel');
  const [problems, setProblems] = useState<FieldError[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (from: 'file' | 'starter') => {
    const reportName = name.trim() || (from === 'file' && file ? file.name.replace(/\.[^.]+$/, '') : '');
    if (!reportName) return setError('Name the report (or choose a file: its name is used).');
    if (from === 'file' && !file) return setError('Choose a .docx, .xlsx, .pptx or .html file.');
    setBusy(true);
    setError(null);
    const body =
      from === 'file'
        ? {
            name: reportName,
            projectId,
            fileName: file!.name,
            content: await readFile(file!, 'base64'),
            encoding: 'base64' as const,
          }
        : { name: reportName, projectId, starter };
    const a = await invoke('app.reports.createFromTemplate', { body });
    setBusy(false);
    if (!a.ok) {
      setProblems(a.errorDetails.filter((d) => d.field.startsWith('templateFile:')));
      return setError(a.error ?? 'The report could not be created.');
    }
    setProblems([]);
    toastSucceeded(`Created “${a.data.name}”: ${a.data.tags.length} tags checked.`);
    onCreated(a.data.id);
  };

  return (
    <fieldset className="new-template" aria-busy={busy}>
      <legend>Or build it in Office</legend>
      <p className="hint">
        Use your own Word, Excel, PowerPoint or HTML file with tags, or let Broadsheet write a starter from the app.
      </p>
      <label htmlFor="tpl-name">Report name</label>
      <input
        id="tpl-name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="From the file's name when empty"
      />
      <label htmlFor="tpl-file-input">Template file</label>
      <input
        id="tpl-file-input"
        type="file"
        accept=".docx,.xlsx,.pptx,.html,.htm"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      <div className="row-actions">
        <button type="button" onClick={() => void create('file')} disabled={busy || !file}>
          Create from file
        </button>
        <label htmlFor="tpl-starter" className="sr-only">
          Starter type
        </label>
        <select id="tpl-starter" value={starter} onChange={(e) => setStarter(e.target.value)}>
          {REPORT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void create('starter')} disabled={busy}>
          Create from a starter
        </button>
      </div>
      {error && !problems.length && (
        <div className="error-banner" role="alert">
          {error}
        </div>
      )}
      <TemplateProblems problems={problems} />
    </fieldset>
  );
}
