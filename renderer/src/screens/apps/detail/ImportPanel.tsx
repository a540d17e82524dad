import { upload } from '../../../bridge';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import type { AppMeta } from './use-analytics-app';

/** Loads a CSV, XLSX or JSON file into the app (asked first when it would replace rows), with its progress. */
export function ImportPanel(props: {
  id: string;
  meta: AppMeta;
  progress: number | null;
  progressed: (percent: number | null) => void;
  imported: (meta: AppMeta) => void;
  started: () => void;
}) {
  const { id, meta, progress, progressed, imported, started } = props;
  const importFile = async (picker: HTMLInputElement) => {
    const file = picker.files?.[0];
    if (!file) return;
    // The picker names only a file that was loaded: a refused or failed one is not left there
    // (beside the bar of an earlier import) to read as the app's data.
    const forget = () => {
      picker.value = '';
      progressed(null);
    };
    // Importing replaces every row of the app: asked first whenever there is data to lose.
    if (meta.rowCount > 0) {
      const yes = await askConfirm({
        title: "Replace the app's data?",
        message: `The ${meta.rowCount.toLocaleString()} rows of “${meta.name}” will be replaced by the rows of ${file.name}. Charts, variables and bookmarks stay.`,
        confirmLabel: 'Replace data',
      });
      if (!yes) return forget();
    }
    started();
    progressed(0);
    const a = await upload('app.analytics.upload', { params: { id }, query: { fileName: file.name } }, file);
    if (a.ok) progressed(100);
    else forget();
    if (toastOutcome(a, a.ok ? `Imported ${a.data.rowCount.toLocaleString()} rows from ${file.name}.` : ''))
      imported(a.data);
  };
  return (
    <div className="panel">
      <h2>Import data</h2>
      <label className="file-pick">
        CSV, XLSX or JSON file
        <input type="file" accept=".csv,.txt,.tsv,.xlsx,.json" onChange={(e) => void importFile(e.currentTarget)} />
      </label>
      {progress !== null && (
        <div
          className="progress"
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <div style={{ width: `${progress}%` }} />
          <span>{progress}%</span>
        </div>
      )}
    </div>
  );
}
