import { invoke } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';
import type { FieldDef, FormValues, Option } from '../../components/field-def';
import { hereZone } from '../../components/times';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { useSession } from '../../stores/session/session.store';

/** Languages mail and files can be made in; the code is what the interface stores. */
const LANGUAGES: Option[] = [
  { id: 'en', name: 'English' },
  { id: 'fr', name: 'Français' },
  { id: 'de', name: 'Deutsch' },
  { id: 'es', name: 'Español' },
  { id: 'it', name: 'Italiano' },
  { id: 'nl', name: 'Nederlands' },
  { id: 'pt', name: 'Português' },
  { id: 'sv', name: 'Svenska' },
];
const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** One's own name, e-mail, language and time zone; the e-mail one signs in with changes only with the password. */
export function ProfileDetails() {
  const me = useSession((s) => s.me);
  const profileChanged = useSession((s) => s.profileChanged);
  if (!me) return null;
  const user = me.user;
  const fromDirectory = !!user.directoryId;
  const fields: FieldDef[] = [
    { name: 'firstName', label: 'First name', kind: 'text', required: true },
    { name: 'lastName', label: 'Last name', kind: 'text', required: true },
    {
      name: 'email',
      label: 'E-mail',
      kind: 'email',
      required: true,
      hint: fromDirectory
        ? 'Your name and e-mail come from your user directory: change them there'
        : 'The address you sign in with and receive reports at',
    },
    {
      name: 'currentPassword',
      label: 'Current password (to change your e-mail)',
      kind: 'password',
      shownWhen: (v) => String(v.email ?? '').toLowerCase() !== (user.email ?? ''),
    },
    { name: 'isoLanguage', label: 'Language', kind: 'select', choices: LANGUAGES },
    {
      name: 'timeZone',
      label: 'Time zone',
      kind: 'text',
      suggestions: TIME_ZONES,
      hint: `New schedules start in it; leave empty to use this computer's (${hereZone})`,
    },
  ];
  const save = async (v: FormValues) => {
    const text = (k: string) => String(v[k] ?? '').trim();
    const a = await invoke('app.auth.updateProfile', {
      body: {
        firstName: text('firstName'),
        lastName: text('lastName'),
        email: text('email'),
        isoLanguage: text('isoLanguage') || null,
        timeZone: text('timeZone') || null,
        ...(text('currentPassword') ? { currentPassword: String(v.currentPassword) } : {}),
      },
    });
    if (a.ok) {
      profileChanged(a.data);
      toastSucceeded('Your details are saved.');
    }
    return submitOutcome(a);
  };
  return (
    <Form
      key={user.modifiedDate ?? user.id}
      fields={fields}
      initial={{
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email ?? '',
        isoLanguage: user.isoLanguage ?? '',
        timeZone: user.timeZone ?? '',
      }}
      submitLabel="Save your details"
      onSubmit={save}
    />
  );
}
