import { flag, orNull, text, type FormValues } from '../../components/options';
import type { FieldDef } from '../../components/Form';

// A task's settings form, shared by the task list's Edit and the designer's Settings.
export const taskSettingsFields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'isActive', label: 'Active (runs on its schedules)', kind: 'checkbox' },
  { name: 'testMode', label: 'Test mode: send only to the test recipients', kind: 'checkbox' },
  {
    name: 'testModeRecipients',
    label: 'Test recipients',
    kind: 'text',
    hint: 'E-mail addresses separated by semicolons',
  },
  { name: 'sendNotifications', label: 'Send notifications', kind: 'checkbox' },
  { name: 'notifyIfError', label: 'Notify on error', kind: 'checkbox' },
  { name: 'notifyIfWarning', label: 'Notify on warning', kind: 'checkbox' },
  { name: 'notifyIfSuccess', label: 'Notify on success', kind: 'checkbox' },
  {
    name: 'notificationRecipients',
    label: 'Notification recipients',
    kind: 'text',
    hint: 'E-mail addresses separated by semicolons',
  },
];

export const taskSettingsBody = (v: FormValues) => ({
  name: text(v.name),
  description: orNull(v.description),
  isActive: flag(v.isActive),
  testMode: flag(v.testMode),
  testModeRecipients: orNull(v.testModeRecipients),
  sendNotifications: flag(v.sendNotifications),
  notifyIfError: flag(v.notifyIfError),
  notifyIfWarning: flag(v.notifyIfWarning),
  notifyIfSuccess: flag(v.notifyIfSuccess),
  notificationRecipients: orNull(v.notificationRecipients),
});
