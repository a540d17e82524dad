import { create } from 'zustand';

export type ScreenId =
  | 'projects'
  | 'apps'
  | 'data-connections'
  | 'users'
  | 'groups'
  | 'roles'
  | 'organizations'
  | 'api-keys'
  | 'identity-providers'
  | 'trusted-origins'
  | 'user-directories'
  | 'resources'
  | 'settings'
  | 'tasks'
  | 'conditions'
  | 'monitoring'
  | 'storage'
  | 'hub'
  | 'profile';

/** A place in the app: a screen and, for drill-downs, the ids after it (#/projects/<id>/reports/<id>). */
export interface Place {
  screen: ScreenId;
  path: string[];
}

const parse = (): Place => {
  const [screen, ...path] = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { screen: (screen as ScreenId) || 'projects', path };
};
export const hashOf = (screen: ScreenId, path: string[]) => `#/${[screen, ...path].map(encodeURIComponent).join('/')}`;

/** Asked before leaving the current place (unsaved work); answers whether to go. */
type LeaveGuard = () => Promise<boolean>;
let guard: LeaveGuard | null = null;

/** A screen with work to lose sets a guard while it has some, and clears it (null) when it has none. */
export function leaveGuarded(g: LeaveGuard | null) {
  guard = g;
}

interface NavState extends Place {
  screenChosen(screen: ScreenId, ...path: string[]): Promise<void>;
}

/** The current place, mirrored in the URL hash so reload and back keep it. */
export const useNav = create<NavState>((set) => ({
  ...parse(),
  async screenChosen(screen, ...path) {
    if (guard && !(await guard())) return;
    guard = null;
    const hash = hashOf(screen, path);
    if (location.hash !== hash) {
      // The hash listener below sees a place already taken, not a new one to guard.
      set({ screen, path });
      location.hash = hash;
    }
    set({ screen, path });
  },
}));

// Links and the back button change the hash directly: the guard is asked then, and on "stay" the
// address goes back to where the person still is.
window.addEventListener('hashchange', (e) => {
  const next = parse();
  const { screen, path } = useNav.getState();
  if (hashOf(next.screen, next.path) === hashOf(screen, path)) return;
  if (!guard) return useNav.setState(next);
  history.replaceState(null, '', new URL(e.oldURL).hash);
  void guard().then((go) => {
    if (!go) return;
    guard = null;
    useNav.setState(next);
    history.replaceState(null, '', hashOf(next.screen, next.path));
  });
});
