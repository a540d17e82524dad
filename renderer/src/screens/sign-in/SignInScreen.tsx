import { invoke } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';
import { useSession } from '../../stores/session/session.store';

export function SignInScreen() {
  const signedIn = useSession((s) => s.signedIn);
  return (
    <main className="centered">
      <div className="card">
        <h1 className="brand">Broadsheet</h1>
        <p className="sub">Sign in to design and distribute reports.</p>
        <Form
          fields={[
            { name: 'email', label: 'E-mail', kind: 'email', required: true },
            { name: 'password', label: 'Password', kind: 'password', required: true },
          ]}
          initial={{ email: '', password: '' }}
          submitLabel="Sign in"
          onSubmit={async (v) => {
            const a = await invoke('app.auth.login', {
              body: { email: String(v.email ?? ''), password: String(v.password ?? '') },
            });
            if (!a.ok) return submitOutcome(a);
            await signedIn();
            return null;
          }}
        />
      </div>
    </main>
  );
}
