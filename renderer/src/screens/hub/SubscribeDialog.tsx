import { invoke, type Answer, type FieldError } from '../../bridge';
import { WEEKDAYS } from '../../../../engine/wire';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type FieldDef, type FormValues } from '../../components/Form';
import { ids, num, text } from '../../components/options';
import { hereZone, isTimeZone } from '../../components/times';
import { toastOutcome } from '../../stores/feedback/toasts';

type HubFile = RowOf<'v1.files.list'>;
type Subscription = RowOf<'v1.subscriptions.listOwn'>;

const FREQUENCIES = ['Daily', 'Weekly', 'Monthly'] as const;
const DAYS = WEEKDAYS;
const FORMAT_OF: Record<string, string> = {
  pdf: 'Pdf',
  docx: 'Docx',
  xlsx: 'Xlsx',
  pptx: 'Pptx',
  html: 'Html',
  csv: 'Csv',
  png: 'Png',
};

// The days are picked, not typed ("Mondy" was read as Monday); each frequency asks only what it needs.
const FIELDS: FieldDef[] = [
  { name: 'subject', label: 'Mail subject', kind: 'text', required: true },
  { name: 'frequency', label: 'How often', kind: 'select', choices: FREQUENCIES, required: true },
  {
    name: 'weeklyDays',
    label: 'On',
    kind: 'multi',
    choices: DAYS,
    required: true,
    shownWhen: (v) => v.frequency === 'Weekly',
  },
  {
    name: 'day',
    label: 'Day of the month (31: the last day)',
    kind: 'number',
    required: true,
    shownWhen: (v) => v.frequency === 'Monthly',
  },
  { name: 'atHour', label: 'At hour (0–23)', kind: 'number', required: true },
  { name: 'atMinut', label: 'At minute (0–59)', kind: 'number', required: true },
  {
    name: 'timeZone',
    label: 'Time zone',
    kind: 'text',
    required: true,
    hint: 'The hour above is in it; an IANA zone such as Europe/Paris',
  },
  { name: 'message', label: 'Message', kind: 'textarea' },
];

/** The engine names subscription fields where they sit in its body; the form names them flat. */
const flat = (d: FieldError): FieldError => ({
  ...d,
  field: d.field
    .replace(/^body\.(email|schedule)\./, 'body.')
    .replace(/^body\.reports\.\d+\.formats(\.\d+)?$/, 'body.format')
    .replace(/^body\.reports\.\d+\.id$/, 'body.report'),
});

/** What the form checks before the engine does: the zone, the days, the hour and minute. */
function problemsOf(v: FormValues): FieldError[] {
  const out: FieldError[] = [];
  if (!isTimeZone(text(v.timeZone)))
    out.push({ field: 'body.timeZone', message: 'must be an IANA time zone, such as Europe/Paris' });
  if (v.frequency === 'Weekly' && !ids(v.weeklyDays).length)
    out.push({ field: 'body.weeklyDays', message: 'needs at least one day' });
  const hour = num(v.atHour);
  if (hour === null || !Number.isInteger(hour) || hour < 0 || hour > 23)
    out.push({ field: 'body.atHour', message: 'must be a whole number from 0 to 23' });
  const minute = num(v.atMinut);
  if (minute === null || !Number.isInteger(minute) || minute < 0 || minute > 59)
    out.push({ field: 'body.atMinut', message: 'must be a whole number from 0 to 59' });
  return out;
}

const scheduleOf = (v: FormValues) => {
  const frequency = text(v.frequency) || 'Daily';
  return {
    frequency,
    timeZone: text(v.timeZone),
    atHour: num(v.atHour) ?? 7,
    atMinut: num(v.atMinut) ?? 0,
    weeklyDays: frequency === 'Weekly' ? DAYS.filter((d) => ids(v.weeklyDays).includes(d)).join(', ') : null,
    day: frequency === 'Monthly' ? (num(v.day) ?? 1) : null,
  };
};

const formOf = (s: Subscription): FormValues => ({
  subject: s.email.subject,
  message: s.email.message,
  frequency: s.schedule?.frequency ?? 'Daily',
  atHour: s.schedule?.atHour ?? 7,
  atMinut: s.schedule?.atMinut ?? 0,
  timeZone: s.schedule?.timeZone ?? hereZone,
  day: s.schedule?.day ?? 1,
  weeklyDays: (s.schedule?.weeklyDays ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean),
});

/**
 * Subscribe to the report behind a published file (or change a subscription): the same format by
 * mail on a schedule of one's own, in a time zone one picks (one's own to begin with). The file's
 * report must be published to the caller (the engine checks).
 */
export function SubscribeDialog({
  file,
  editing,
  onClose,
}: {
  file?: HubFile;
  editing?: Subscription;
  onClose: () => void;
}) {
  const title = editing ? (editing.subscribeTo ?? editing.name ?? 'subscription') : (file?.reportName ?? '');
  const submit = async (v: FormValues) => {
    const problems = problemsOf(v);
    if (problems.length) return { error: 'Check the fields marked', errorDetails: problems };
    let a: Answer<unknown>;
    if (editing) {
      a = await invoke('v1.subscriptions.update', {
        params: { SubcriptionId: editing.id },
        body: {
          name: editing.name,
          description: editing.description,
          triggerType: 'Schedule',
          type: editing.type,
          subscribeTo: editing.subscribeTo,
          reports: editing.reports.map((r) => ({
            id: r.id,
            formats: r.formats,
            zipEmailFiles: r.zipEmailFiles,
            emailAttachment: r.emailAttachment,
            emailEmbedment: r.emailEmbedment,
            filter: r.filter,
          })),
          analyticsEntity: editing.analyticsEntity ? { ...editing.analyticsEntity, format: 'Png' } : null,
          format: editing.format,
          filter: editing.filter,
          isActive: editing.isActive,
          schedule: scheduleOf(v),
          email: { ...editing.email, subject: text(v.subject), message: text(v.message) },
        },
      });
    } else {
      a = await invoke('v1.subscriptions.create', {
        body: {
          name: file!.reportName,
          type: 'Report',
          triggerType: 'Schedule',
          subscribeTo: file!.reportName,
          reports: [
            { id: file!.reportId, formats: [FORMAT_OF[file!.extension ?? ''] ?? 'Pdf'], emailAttachment: true },
          ],
          schedule: scheduleOf(v),
          email: { subject: text(v.subject), message: text(v.message) },
        },
      });
    }
    if (a.ok) {
      toastOutcome(
        a,
        editing
          ? `Saved your subscription to “${title}”.`
          : `Subscribed to “${title}”. It arrives by mail from its next run.`,
      );
      onClose();
    }
    return submitOutcome({ ...a, errorDetails: a.errorDetails.map(flat) });
  };
  return (
    <Dialog title={editing ? `Subscription to “${title}”` : `Subscribe to “${title}”`} onClose={onClose}>
      {file && <p className="hint">Sent to you by mail as {(file.extension ?? 'pdf').toUpperCase()}.</p>}
      <Form
        fields={FIELDS}
        initial={
          editing
            ? formOf(editing)
            : {
                subject: file?.reportName ?? '',
                frequency: 'Daily',
                atHour: 7,
                atMinut: 0,
                day: 1,
                timeZone: hereZone,
                weeklyDays: [],
              }
        }
        submitLabel={editing ? 'Save' : 'Subscribe'}
        onSubmit={submit}
        onCancel={onClose}
      />
    </Dialog>
  );
}
