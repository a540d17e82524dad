import { create } from 'zustand';
import { httpSession, invoke, isDesktop } from '../../bridge';
import type { OpId, ResultOf } from '../../../../engine/catalogue';

type Me = ResultOf<'app.auth.me'>;

export type SessionStatus = 'starting' | 'setup' | 'signedOut' | 'signedIn';

interface SessionState {
  status: SessionStatus;
  me: Me | null;
  appStarted(): Promise<void>;
  signedIn(): Promise<void>;
  signOutRequested(): Promise<void>;
  /** One's own details were saved: the name in the menu and the zone new schedules start in follow. */
  profileChanged(user: Me['user']): void;
}

export const useSession = create<SessionState>((set) => ({
  status: 'starting',
  me: null,
  async appStarted() {
    // Back from the company's sign-in: the one-time code in the address becomes this page's session.
    const code = ssoFinishCode();
    if (code) {
      const done = await invoke('app.auth.ssoFinish', { body: { code } });
      history.replaceState(
        null,
        '',
        done.ok ? `${location.pathname}${done.data.returnTo}` : '#/sign-in/problem/expired',
      );
      if (done.ok) return set({ status: 'signedIn', me: (await invoke('app.auth.me')).data ?? null });
    }
    const setup = await invoke('app.setup.status');
    // Served, a page without a session token has no one to ask about (and a 401 to log for nothing).
    const me = isDesktop() || httpSession.get() ? await invoke('app.auth.me') : null;
    if (me?.ok) return set({ status: 'signedIn', me: me.data });
    set({ status: setup.ok && !setup.data.setupComplete ? 'setup' : 'signedOut', me: null });
  },
  async signedIn() {
    const me = await invoke('app.auth.me');
    set(me.ok ? { status: 'signedIn', me: me.data } : { status: 'signedOut', me: null });
  },
  profileChanged(user) {
    set((s) => (s.me ? { me: { ...s.me, user } } : {}));
  },
  async signOutRequested() {
    // A company sign-in's session ends at its provider too: the browser goes there (served only:
    // the desktop signed in through the system browser, whose session is the person's own).
    const done = await invoke('app.auth.signOut');
    httpSession.set(null);
    if (done.ok && done.data.signOutUrl && !isDesktop()) return location.assign(done.data.signOutUrl);
    set({ status: 'signedOut', me: null });
  },
}));

/** The one-time code of a company sign-in's return (#/sign-in/finish/<code>), or null. */
export const ssoFinishCode = () => /^#\/sign-in\/finish\/([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? null;

/** Why a company sign-in did not let someone in (#/sign-in/problem/<reason>), or null. */
export const ssoProblem = () => /^#\/sign-in\/problem\/([a-z]+)$/.exec(location.hash)?.[1] ?? null;

/** Whether the signed-in user may call an operation: screens offer an action by its operation's id. */
export const selectMayCall = (op: OpId) => (s: Pick<SessionState, 'me'>) => !!s.me && s.me.operations.includes(op);

/** The same, asked outside a component (a loader choosing what to read): no call made that roles refuse. */
export const mayCall = (op: OpId) => selectMayCall(op)(useSession.getState());
