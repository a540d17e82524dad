import { useMemo, useState } from 'react';
import { OUTPUT_FORMATS } from '../../../../engine/wire';
import { Dialog } from '../../components/Dialog';
import { Form, type FieldDef, type SubmitOutcome } from '../../components/Form';
import { flag, ids, num, orNull, text, type FormValues } from '../../components/options';
import type { SaveProblems } from './save-task-draft';
import { MAIL_CHOICES, newKey, reportLabel, type MailChoice, type ReportItem } from './task-draft';
import { nameIn, useTaskChoices, type TaskChoices } from './task-options';

function reportFields(c: TaskChoices, item: ReportItem | null): FieldDef[] {
  // The choices were read when the page opened: given at once, so the dialog is ready for the keyboard.
  return [
    {
      name: 'reportID',
      label: 'Report',
      kind: 'select',
      required: true,
      choices: c.reports.map((r) => ({ id: r.id, name: `${r.name} (${r.formats.join(', ')})` })),
    },
    {
      name: 'format',
      label: 'Format',
      kind: 'select',
      required: true,
      choices: OUTPUT_FORMATS,
      // Only the formats the chosen report makes (a Word template makes Docx and Pdf, not Xlsx).
      choicesWhen: (v) => c.reports.find((r) => r.id === v.reportID)?.formats ?? null,
    },
    { name: 'filters', label: "Filters (after the report's own)", kind: 'multi', choices: c.filters },
    { name: 'conditions', label: 'Conditions (all must hold)', kind: 'multi', choices: c.conditions },
    { name: 'eachIteration', label: 'Check the conditions for each iteration value', kind: 'checkbox' },
    {
      name: 'password',
      label: item?.hasPassword ? 'New password to open the file' : 'Password to open the file',
      kind: 'password',
      hint: item?.hasPassword ? 'Leave blank to keep the current password' : 'Leave blank for an unprotected file',
    },
    ...(item?.hasPassword
      ? [{ name: 'removePassword', label: 'Remove the password', kind: 'checkbox' } as FieldDef]
      : []),
    { name: 'storage', label: 'Also put the files in', kind: 'select', choices: c.storage },
    {
      name: 'storagePath',
      label: 'Under the path',
      kind: 'text',
      hint: 'Inside the storage service, such as monthly/2026',
    },
    {
      name: 'folderVariable',
      label: 'Subfolder per iteration value from the variable',
      kind: 'text',
      hint: "A variable such as vRegion: each value's file goes to its own folder",
    },
    { name: 'mail', label: "In the task's e-mail", kind: 'select', required: true, choices: MAIL_CHOICES },
    { name: 'zipEmailFiles', label: 'Zip the attached files into one', kind: 'checkbox' },
    {
      name: 'recipientsVariable',
      label: "Also mail each iteration value's file to the addresses in the variable",
      kind: 'text',
      hint: 'A variable such as vManagerEmail; each address gets only its own files',
    },
    { name: 'hubFolder', label: 'Publish to the hub, in', kind: 'select', choices: c.hubFolders },
    {
      name: 'hubMax',
      label: 'Occurrences kept in the hub',
      kind: 'number',
      hint: 'Older ones are removed; 0 keeps all',
    },
    {
      name: 'hubUserVariable',
      label: 'Hub: only for the users the variable names',
      kind: 'text',
      hint: 'A variable giving e-mail addresses per iteration value; leave blank for every recipient',
    },
  ];
}

const formOf = (r: ReportItem | null, c: TaskChoices | null): FormValues =>
  r
    ? {
        reportID: r.reportId,
        format: r.format,
        filters: r.filterIds,
        conditions: r.conditionIds,
        eachIteration: r.eachIteration,
        storage: r.storage[0]?.fileStorageServiceId ?? null,
        storagePath: r.storage[0]?.path ?? '',
        folderVariable: r.folderVariable ?? '',
        mail: r.mail,
        zipEmailFiles: r.zipEmailFiles,
        recipientsVariable: r.recipientsVariable ?? '',
        hubFolder: r.hubFolderId,
        hubMax: r.hubMax,
        hubUserVariable: r.hubUserVariable ?? '',
      }
    : // Recipients see the hub by default: a new report is published there, in its top folder, to match.
      { format: 'Pdf', mail: 'Attached', hubMax: 0, hubFolder: c?.hubRootId ?? null };

/** The dialog's values as a draft item, or the problems to show beside its fields (checked here, as the engine would at Save). */
function itemOf(
  v: FormValues,
  was: ReportItem | null,
  c: TaskChoices,
  others: ReportItem[],
): ReportItem | SubmitOutcome {
  const report = c.reports.find((r) => r.id === v.reportID);
  const format = text(v.format);
  const problems = [
    ...(!report ? [{ field: 'body.reportID', message: 'is required' }] : []),
    ...(report && format && ![...report.formats, 'Png'].includes(format)
      ? [{ field: 'body.format', message: `must be one of: ${report.formats.join(', ')}` }]
      : []),
    ...(report && others.some((o) => o.reportId === report.id && o.format === format)
      ? [{ field: 'body.reportID', message: `is already in the task as ${format}: edit that entry instead` }]
      : []),
    ...(num(v.hubMax) !== null && (num(v.hubMax)! < 0 || !Number.isInteger(num(v.hubMax)))
      ? [{ field: 'body.hubMax', message: 'must be a whole number, 0 or more' }]
      : []),
  ];
  if (problems.length || !report) return { error: 'Check the fields marked', errorDetails: problems };
  const storageId = orNull(v.storage);
  const rest = (was?.storage ?? []).slice(1);
  return {
    key: was?.key ?? newKey(),
    reportId: report.id,
    reportName: report.name,
    format,
    filterIds: ids(v.filters),
    conditionIds: ids(v.conditions),
    eachIteration: flag(v.eachIteration),
    hasPassword: !!was?.hasPassword && !flag(v.removePassword),
    newPassword: orNull(v.password),
    storage: storageId
      ? [
          {
            fileStorageServiceId: storageId,
            path: text(v.storagePath),
            siteUrl: was?.storage[0]?.siteUrl ?? null,
            zipFiles: was?.storage[0]?.zipFiles ?? false,
          },
          ...rest,
        ]
      : rest,
    folderVariable: orNull(v.folderVariable),
    mail: (text(v.mail) || 'Attached') as MailChoice,
    zipEmailFiles: flag(v.zipEmailFiles),
    recipientsVariable: orNull(v.recipientsVariable),
    hubFolderId: orNull(v.hubFolder),
    hubMax: num(v.hubMax) ?? 0,
    hubUserVariable: orNull(v.hubUserVariable),
  };
}

/** The reports a task makes, each edited in place (a dialog) or removed; part of the task's draft. */
export function TaskReportsSection({
  projectId,
  items,
  problems,
  edited,
}: {
  projectId: string;
  items: ReportItem[];
  problems: SaveProblems;
  edited: (items: ReportItem[]) => void;
}) {
  const choices = useTaskChoices(projectId);
  const [open, setOpen] = useState<{ item: ReportItem | null } | null>(null);
  const fields = useMemo(() => (open && choices ? reportFields(choices, open.item) : []), [open, choices]);
  const names = (list: string[], of: 'conditions' | 'filters' | 'storage') =>
    list.map((id) => nameIn(choices?.[of], id));
  return (
    <div className="panel">
      <div className="block-head">
        <h2>Reports</h2>
        <button type="button" onClick={() => setOpen({ item: null })} disabled={!choices}>
          Add report
        </button>
      </div>
      <ul className="cards">
        {items.map((r) => (
          <li key={r.key} className={problems[r.key] ? 'stacked invalid' : 'stacked'}>
            <strong>{r.reportName}</strong> <span className="badge">{r.format}</span>
            <span className="card-actions">
              <button
                type="button"
                className="small"
                aria-label={`Edit ${reportLabel(r)}`}
                onClick={() => setOpen({ item: r })}
              >
                Edit
              </button>
              <button
                type="button"
                className="small danger"
                aria-label={`Remove ${reportLabel(r)}`}
                onClick={() => edited(items.filter((x) => x.key !== r.key))}
              >
                Remove
              </button>
            </span>
            <div className="badges">
              {names(r.conditionIds, 'conditions').map((n) => (
                <span key={n} className="badge">
                  if {n}
                  {r.eachIteration ? ' (each value)' : ''}
                </span>
              ))}
              {names(r.filterIds, 'filters').map((n) => (
                <span key={n} className="badge">
                  filter {n}
                </span>
              ))}
              {(r.hasPassword || r.newPassword) && <span className="badge">password</span>}
              {r.storage.length > 0 && (
                <span className="badge">
                  to{' '}
                  {names(
                    r.storage.map((s) => s.fileStorageServiceId),
                    'storage',
                  ).join(', ')}
                </span>
              )}
              {r.mail === 'Attached' && (
                <span className="badge">{r.zipEmailFiles ? 'zipped in mail' : 'attached'}</span>
              )}
              {r.mail === 'In the body' && <span className="badge">in the mail body</span>}
              {r.recipientsVariable && <span className="badge">mailed to {r.recipientsVariable}</span>}
              {r.hubFolderId && (
                <span className="badge">
                  hub {nameIn(choices?.hubFolders, r.hubFolderId)}
                  {r.hubMax ? `, keeps ${r.hubMax}` : ''}
                  {r.hubUserVariable ? ` for ${r.hubUserVariable}` : ''}
                </span>
              )}
            </div>
            {problems[r.key] && <div className="field-error">{problems[r.key]}</div>}
          </li>
        ))}
        {items.length === 0 && <li className="empty">No reports yet: add the reports this task makes.</li>}
      </ul>
      {open && choices && (
        <Dialog title={open.item ? `Edit ${reportLabel(open.item)}` : 'Add a report'} onClose={() => setOpen(null)}>
          <Form
            fields={fields}
            initial={formOf(open.item, choices)}
            submitLabel={open.item ? 'Apply' : 'Add report'}
            onCancel={() => setOpen(null)}
            onSubmit={async (v) => {
              const others = items.filter((x) => x.key !== open.item?.key);
              const next = itemOf(v, open.item, choices, others);
              if (!next || !('key' in next)) return next;
              edited(open.item ? items.map((x) => (x.key === next.key ? next : x)) : [...items, next]);
              setOpen(null);
              return null;
            }}
          >
            <p className="hint">Changes go into the task's draft: Save writes them.</p>
          </Form>
        </Dialog>
      )}
    </div>
  );
}
