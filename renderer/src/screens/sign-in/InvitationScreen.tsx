import { useState, useSyncExternalStore } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';

/** The token of an invitation link (#/invitation/<token>), or null. */
export const invitationToken = () => /^#\/invitation\/([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? null;

const onHashChange = (changed: () => void) => {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
};

/** The invitation token of the address as it is now: a link opened in a tab already showing the sign-in form counts too. */
export const useInvitationToken = () => useSyncExternalStore(onHashChange, invitationToken);

/**
 * An invitation link: the invited person chooses their password (the link works once), then signs
 * in as anyone does. A used or expired link says so beside the form.
 */
export function InvitationScreen({ token }: { token: string }) {
  const [done, setDone] = useState<string | null>(null);
  const toSignIn = () => {
    location.hash = '#/';
    location.reload();
  };
  return (
    <main className="centered">
      <div className="card">
        <h1 className="brand">Broadsheet</h1>
        {done ? (
          <>
            <p className="sub" role="status">Your password is set. Sign in with {done}.</p>
            <button type="button" className="primary" onClick={toSignIn}>Go to sign-in</button>
          </>
        ) : (
          <>
            <p className="sub">You were invited. Choose your password.</p>
            <Form
              fields={[{ name: 'password', label: 'Password', kind: 'password', required: true, hint: 'At least 8 characters' }]}
              initial={{ password: '' }}
              submitLabel="Set password"
              onSubmit={async (v) => {
                const a = await invoke('app.invitations.accept', { body: { token, password: String(v.password ?? '') } });
                if (a.ok) setDone(a.data.email ?? 'your e-mail address');
                return submitOutcome(a);
              }}
            />
          </>
        )}
      </div>
    </main>
  );
}
