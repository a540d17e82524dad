import { useEffect, useState } from 'react';
import type { ResultOf } from '../../../../engine/catalogue';
import { invoke, isDesktop } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';
import { ssoProblem, useSession } from '../../stores/session/session.store';

type Choices = ResultOf<'app.auth.providers'>;

/** What a company sign-in's refusal means, in words (the page never shows what a provider sent). */
const PROBLEMS: Record<string, string> = {
  nobody:
    'Your company account is not a Broadsheet user here, or that user is inactive. Ask an administrator to add you.',
  disabled: 'That sign-in is turned off. Sign in another way, or ask an administrator.',
  state: 'That sign-in took too long or was already used. Try again.',
  expired: 'That sign-in link was already used or has expired. Try again.',
  throttled: 'Too many failed sign-ins from here. Wait a minute, then try again.',
  setup: 'That sign-in is not set up completely. An administrator can see why in the log.',
  signout:
    'You are signed out of Broadsheet. Your company sign-in could not confirm it signed you out there too: close the browser to be sure.',
  windows:
    'Windows sign-in did not work from this browser: it needs a Kerberos ticket for this server (a domain-joined computer, and the browser allowed to use it).',
};
const problemText = (reason: string) =>
  PROBLEMS[reason] ?? 'Your company sign-in did not let you in. Try again; an administrator can see why in the log.';

/** The address that sends the browser to a provider, coming back to the screen the person was on. */
const startUrl = (id: string) => `api/app/sso/${encodeURIComponent(id)}/start?returnTo=${encodeURIComponent('#/')}`;

export function SignInScreen() {
  const signedIn = useSession((s) => s.signedIn);
  const [choices, setChoices] = useState<Choices | null>(null);
  const [problem] = useState(ssoProblem);
  useEffect(() => {
    void invoke('app.auth.providers').then((a) => {
      if (!a.ok) return;
      setChoices(a.data);
      // One provider, no passwords: straight there (unless it just refused, this is the desktop, or
      // the tenant owner opened #/sign-in/password to use the break-glass password).
      const passwordAsked = location.hash === '#/sign-in/password';
      if (a.data.goStraightTo && !problem && !passwordAsked && !isDesktop())
        location.assign(startUrl(a.data.goStraightTo));
    });
  }, [problem]);
  const providers = choices?.providers ?? [];
  return (
    <main className="centered">
      <div className="card">
        <h1 className="brand">Broadsheet</h1>
        <p className="sub">Sign in to design and distribute reports.</p>
        {problem && (
          <p role="alert" className="error-banner">
            {problemText(problem)}
          </p>
        )}
        {providers.length > 0 && !isDesktop() && (
          <nav aria-label="Company sign-in" className="sso-buttons">
            {providers.map((p) => (
              <a key={p.id} className="sso-button" href={startUrl(p.id)}>
                {p.label}
              </a>
            ))}
          </nav>
        )}
        {isDesktop() && providers.some((p) => p.kind === 'oidc') && (
          <DesktopCompanySignIn providers={providers.filter((p) => p.kind === 'oidc')} signedIn={signedIn} />
        )}
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

/**
 * The desktop signs in through the system browser (RFC 8252), never a web view of its own: the
 * button waits while the person signs in there, then the window is signed in.
 */
function DesktopCompanySignIn({
  providers,
  signedIn,
}: {
  providers: Choices['providers'];
  signedIn: () => Promise<void>;
}) {
  const [waiting, setWaiting] = useState<string | null>(null);
  const [problemText, setProblemText] = useState<string | null>(null);
  return (
    <nav aria-label="Company sign-in" className="sso-buttons">
      {problemText && (
        <p role="alert" className="error-banner">
          {problemText}
        </p>
      )}
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="sso-button"
          disabled={waiting !== null}
          onClick={() => {
            setWaiting(p.id);
            setProblemText(null);
            void window.broadsheet!.signInWith(p.id).then(async (a) => {
              setWaiting(null);
              if (a.status === 200) return signedIn();
              setProblemText(String((a.envelope as { error?: string }).error ?? 'The sign-in did not finish'));
            });
          }}
        >
          {waiting === p.id ? 'Finish signing in in your browser…' : p.label}
        </button>
      ))}
    </nav>
  );
}
