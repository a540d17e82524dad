import { httpSession, invoke, isDesktop } from '../../bridge';
import { Form, type FieldDef } from '../../components/Form';
import { useSession } from '../../stores/session/session.store';

const fields: FieldDef[] = [
  { name: 'firstName', label: 'First name', kind: 'text', required: true },
  { name: 'lastName', label: 'Last name', kind: 'text', required: true },
  { name: 'email', label: 'E-mail', kind: 'email', required: true },
  { name: 'password', label: 'Password', kind: 'password', required: true, hint: 'At least 8 characters' },
];
// Served over HTTP, only the holder of the owner key (the owner-api-key file) may claim the owner account.
const ownerKeyField: FieldDef = { name: 'ownerKey', label: 'Owner key', kind: 'password', required: true, hint: 'The content of the owner-api-key file in the data folder' };

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
            if (!isDesktop()) httpSession.set(String(v.ownerKey ?? '').trim() || null);
            const a = await invoke('app.setup.complete', { body: { firstName: String(v.firstName ?? ''), lastName: String(v.lastName ?? ''), email: String(v.email ?? ''), password: String(v.password ?? '') } });
            if (!a.ok) {
              if (!isDesktop() && a.status === 401) return { error: 'The owner key is not valid', errorDetails: [{ field: 'body.ownerKey', message: 'is not the owner key' }] };
              return { error: a.error, errorDetails: a.errorDetails };
            }
            await signedIn();
            return null;
          }}
        />
      </div>
    </main>
  );
}
