import { useEffect } from 'react';
import { useSession } from './stores/session/session.store';
import { SignInScreen } from './screens/sign-in/SignInScreen';
import { InvitationScreen, useInvitationToken } from './screens/sign-in/InvitationScreen';
import { FirstRunScreen } from './screens/first-run/FirstRunScreen';
import { Shell } from './screens/shell/Shell';
import { ConfirmHost } from './components/ConfirmHost';
import { Toasts } from './components/Toasts';

function Current() {
  const status = useSession((s) => s.status);
  const token = useInvitationToken();
  if (status === 'starting')
    return (
      <main className="centered">
        <p className="sub">Starting…</p>
      </main>
    );
  if (status === 'setup') return <FirstRunScreen />;
  if (status === 'signedOut' && token) return <InvitationScreen token={token} />;
  if (status === 'signedOut') return <SignInScreen />;
  return <Shell />;
}

export function App() {
  const appStarted = useSession((s) => s.appStarted);
  useEffect(() => void appStarted(), [appStarted]);
  return (
    <>
      <Current />
      <ConfirmHost />
      <Toasts />
    </>
  );
}
