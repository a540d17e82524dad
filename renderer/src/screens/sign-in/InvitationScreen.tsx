import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ResultOf } from '../../../../engine/catalogue';
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

type Check = ResultOf<'app.invitations.check'>;

/**
 * An invitation link: the invited person gives their name and chooses their password (the link
 * works once), then signs in as anyone does. A used or expired link says so, with no form to fill.
 */
export function InvitationScreen({ token }: { token: string }) {
  const [done, setDone] = useState<string | null>(null);
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => {
    void invoke('app.invitations.check', { body: { token } }).then((a) =>
      setCheck(
        a.ok
          ? a.data
          : {
              valid: false,
              email: null,
              firstName: null,
              lastName: null,
              problem: a.error ?? 'This link cannot be checked now.',
            },
      ),
    );
  }, [token]);
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
            <p className="sub" role="status">
              Your password is set. Sign in with {done}.
            </p>
            <button type="button" className="primary" onClick={toSignIn}>
              Go to sign-in
            </button>
          </>
        ) : !check ? (
          <p className="sub" role="status">
            Opening your invitation…
          </p>
        ) : !check.valid ? (
          <>
            <p className="error-banner" role="alert">
              {check.problem
                ? `${check.problem.charAt(0).toUpperCase()}${check.problem.slice(1)}.`
                : 'This link no longer opens.'}
            </p>
            <button type="button" onClick={toSignIn}>
              Go to sign-in
            </button>
          </>
        ) : (
          <>
            <p className="sub">You were invited as {check.email}. Tell us your name and choose your password.</p>
            <Form
              fields={[
                { name: 'firstName', label: 'First name', kind: 'text', required: true },
                { name: 'lastName', label: 'Last name', kind: 'text' },
                {
                  name: 'password',
                  label: 'Password',
                  kind: 'password',
                  required: true,
                  hint: 'At least 8 characters',
                },
              ]}
              // The invitation named them after their address; a real name replaces it.
              initial={{
                firstName: check.email && check.firstName === check.email.split('@')[0] ? '' : (check.firstName ?? ''),
                lastName: check.lastName ?? '',
                password: '',
              }}
              submitLabel="Set password"
              onSubmit={async (v) => {
                const a = await invoke('app.invitations.accept', {
                  body: {
                    token,
                    password: String(v.password ?? ''),
                    firstName: String(v.firstName ?? '') || null,
                    lastName: String(v.lastName ?? '') || null,
                  },
                });
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
