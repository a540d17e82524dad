import { DraftFields } from '../../components/DraftFields';
import type { FieldDef } from '../../components/Form';
import type { EmailDraft } from './task-draft';

const EMAIL_FIELDS: FieldDef[] = [
  { name: 'from', label: 'From', kind: 'email', required: true, hint: "Starts as the mail server's sender" },
  { name: 'subject', label: 'Subject', kind: 'text', required: true },
  { name: 'message', label: 'Message', kind: 'textarea' },
  { name: 'cc', label: 'Cc', kind: 'text', hint: 'Addresses separated by semicolons' },
  { name: 'bcc', label: 'Bcc', kind: 'text', hint: 'Addresses separated by semicolons' },
  { name: 'oneToAll', label: 'One mail to all recipients (instead of one each)', kind: 'checkbox' },
  { name: 'isActive', label: 'Send e-mail', kind: 'checkbox' },
  {
    name: 'sendWithoutFiles',
    label: 'Send it even when no report file was made (conditions held back every one)',
    kind: 'checkbox',
  },
];

/** The mail a task sends with its files (delivered by the outbox): part of the task's draft. */
export function TaskEmailSection({
  email,
  edited,
}: {
  email: EmailDraft;
  edited: (change: Partial<EmailDraft>, key: string) => void;
}) {
  return (
    <div className="panel">
      <h2>E-mail</h2>
      <DraftFields fields={EMAIL_FIELDS} values={email} onChange={edited} />
    </div>
  );
}
