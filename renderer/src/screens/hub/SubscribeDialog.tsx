import { invoke, type FieldError } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type FieldDef, type FormValues } from '../../components/Form';
import { toastOutcome } from '../../stores/feedback/toasts';

type HubFile = RowOf<'v1.files.list'>;

const FREQUENCIES = ['Daily', 'Weekly', 'Monthly'] as const;
const FORMAT_OF: Record<string, string> = { pdf: 'Pdf', docx: 'Docx', xlsx: 'Xlsx', pptx: 'Pptx', html: 'Html', csv: 'Csv', png: 'Png' };

const FIELDS: FieldDef[] = [
  { name: 'subject', label: 'Mail subject', kind: 'text', required: true },
  { name: 'frequency', label: 'How often', kind: 'select', choices: FREQUENCIES, required: true },
  { name: 'weeklyDays', label: 'On (weekly)', kind: 'text', hint: 'Days of the week, such as Monday, Thursday' },
  { name: 'day', label: 'Day of the month (monthly)', kind: 'number' },
  { name: 'atHour', label: 'At hour', kind: 'number', hint: '0 to 23, in your time zone' },
  { name: 'atMinut', label: 'At minute', kind: 'number' },
  { name: 'message', label: 'Message', kind: 'textarea' },
];

/** The engine names subscription fields where they sit in its body; the form names them flat. */
const flat = (d: FieldError): FieldError => ({
  ...d,
  field: d.field.replace(/^body\.(email|schedule)\./, 'body.').replace(/^body\.reports\.\d+\.formats(\.\d+)?$/, 'body.format').replace(/^body\.reports\.\d+\.id$/, 'body.report'),
});

/**
 * Subscribe to the report behind a published file: the same format by mail on a schedule of one's
 * own, in one's own time zone. The file's report must be published to the caller (the engine checks).
 */
export function SubscribeDialog({ file, onClose }: { file: HubFile; onClose: () => void }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const submit = async (v: FormValues) => {
    const frequency = String(v.frequency ?? 'Daily');
    const a = await invoke('v1.subscriptions.create', {
      body: {
        name: file.reportName, type: 'Report', triggerType: 'Schedule', subscribeTo: file.reportName,
        reports: [{ id: file.reportId, formats: [FORMAT_OF[file.extension ?? ''] ?? 'Pdf'], emailAttachment: true }],
        schedule: {
          frequency, timeZone, atHour: (v.atHour as number | undefined) ?? 7, atMinut: (v.atMinut as number | undefined) ?? 0,
          weeklyDays: frequency === 'Weekly' ? String(v.weeklyDays ?? '') : null, day: frequency === 'Monthly' ? ((v.day as number | undefined) ?? 1) : null,
        },
        email: { subject: String(v.subject ?? ''), message: String(v.message ?? '') },
      },
    });
    if (a.ok) {
      toastOutcome(a, `Subscribed to “${file.reportName}”. It arrives by mail from its next run.`);
      onClose();
    }
    return submitOutcome({ ...a, errorDetails: a.errorDetails.map(flat) });
  };
  return (
    <Dialog title={`Subscribe to “${file.reportName}”`} onClose={onClose}>
      <p className="hint">Sent to you by mail as {(file.extension ?? 'pdf').toUpperCase()}, in your time zone ({timeZone}).</p>
      <Form fields={FIELDS} initial={{ subject: file.reportName, frequency: 'Daily', atHour: 7, atMinut: 0 }} submitLabel="Subscribe" onSubmit={submit} onCancel={onClose} />
    </Dialog>
  );
}
