import { create } from 'zustand';

export type ScreenId =
  | 'users' | 'groups' | 'roles' | 'organizations' | 'api-keys' | 'identity-providers' | 'trusted-origins' | 'user-directories' | 'resources' | 'settings';

const fromHash = (): ScreenId => (location.hash.replace(/^#\/?/, '') as ScreenId) || 'users';

interface NavState {
  screen: ScreenId;
  screenChosen(screen: ScreenId): void;
}

/** The current screen, mirrored in the URL hash so reload and back keep the place. */
export const useNav = create<NavState>((set) => ({
  screen: fromHash(),
  screenChosen(screen) {
    if (location.hash !== `#/${screen}`) location.hash = `#/${screen}`;
    set({ screen });
  },
}));

window.addEventListener('hashchange', () => useNav.setState({ screen: fromHash() }));
