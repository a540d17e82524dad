import { create } from 'zustand';

export type ScreenId =
  | 'projects' | 'apps' | 'users' | 'groups' | 'roles' | 'organizations' | 'api-keys' | 'identity-providers' | 'trusted-origins' | 'user-directories' | 'resources' | 'settings';

/** A place in the app: a screen and, for drill-downs, the ids after it (#/projects/<id>/reports/<id>). */
export interface Place {
  screen: ScreenId;
  path: string[];
}

const parse = (): Place => {
  const [screen, ...path] = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { screen: (screen as ScreenId) || 'projects', path };
};

interface NavState extends Place {
  screenChosen(screen: ScreenId, ...path: string[]): void;
}

/** The current place, mirrored in the URL hash so reload and back keep it. */
export const useNav = create<NavState>((set) => ({
  ...parse(),
  screenChosen(screen, ...path) {
    const hash = `#/${[screen, ...path].map(encodeURIComponent).join('/')}`;
    if (location.hash !== hash) location.hash = hash;
    set({ screen, path });
  },
}));

window.addEventListener('hashchange', () => useNav.setState(parse()));
