import { httpSession, invoke, isDesktop } from '../../bridge';
import { Form, submitOutcome, type FieldDef } from '../../components/Form';
import { useSession } from '../../stores/session/session.store';

const fields: FieldDef[] = [
  { name: 'firstName', label: 'First name', kind: 'text', required: true },
  { name: 'lastName', label: 'Last name', kind: 'text', required: true },
  { name: 'email', label: 'E-mail', kind: 'email', required: true },
  { name: 'password', label: 'Password', kind: 'password', required: true, hint: 'At least 8 characters' },
];
// Served over HTTP, only the holder of the owner key (the owner-api-key file) may claim the owner account.
const ownerKeyField: FieldDef = {
  name: 'ownerKey',
  label: 'Owner key',
  kind: 'password',
  required: true,
  hint: 'The content of the owner-api-key file in the data folder',
};

export function FirstRunScreen() {
  const signedIn = useSession((s) => s.signedIn);
  return (
    <main className="centered">
      <div className="card">
        <h1 className="brand">Welcome to Broadsheet</h1>
        <p className="sub">You are the owner of this installation. Tell us who you are and choose a password.</p>
        <Form
          fields={isDesktop() ? fields : [ownerKeyField, ...fields]}
          initial={{}}
          submitLabel="Finish setup"
          onSubmit={async (v) => {
            const body = {
              firstName: String(v.firstName ?? ''),
              lastName: String(v.lastName ?? ''),
              email: String(v.email ?? ''),
              password: String(v.password ?? ''),
            };
            if (!isDesktop()) httpSession.set(String(v.ownerKey ?? '').trim() || null);
            const a = await invoke('app.setup.complete', { body });
            if (!a.ok) {
              if (isDesktop()) return submitOutcome(a);
              // The fields are checked before the key is (an unknown key reads as no key), so a
              // form with both wrong asks about the key too: every problem is told in one round.
              const key = String(v.ownerKey ?? '').trim();
              const keyWrong = a.status === 403 || (a.status === 400 && !!key && !(await invoke('app.auth.me')).ok);
              const keyProblem = !key ? 'is required' : keyWrong ? 'is not the owner key of this installation' : null;
              const errorDetails = [
                ...(keyProblem ? [{ field: 'body.ownerKey', message: keyProblem }] : []),
                ...(a.status === 400 ? a.errorDetails : []),
              ];
              return { error: errorDetails.length ? null : a.error, errorDetails };
            }
            await signedIn();
            return null;
          }}
        />
      </div>
    </main>
  );
}
