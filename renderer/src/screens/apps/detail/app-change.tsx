import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';

type AppAccess = ResultOf<'app.analytics.access'>;

/**
 * Whether the person may change the app, as the engine's own checks answer it
 * (`app.analytics.access`: their roles, and the projects in permissions mode that use the app).
 * Until the answer comes nothing that changes the app is offered.
 */
export function useAppAccess(appId: string): AppAccess | null {
  const [access, setAccess] = useState<AppAccess | null>(null);
  useEffect(() => {
    let live = true;
    void invoke('app.analytics.access', { params: { id: appId } }).then((a) => {
      if (live) setAccess(a.ok ? a.data : { mayChange: false, why: a.error });
    });
    return () => {
      live = false;
    };
  }, [appId]);
  return access;
}

const MayChangeApp = createContext(false);

/** The app page's answer, given once to every panel under it. */
export const MayChangeAppProvider = MayChangeApp.Provider;
export const useMayChangeApp = () => useContext(MayChangeApp);

/** What changes the app, shown only to whom may change it (a viewer reads the app, and is offered nothing to be refused). */
export function IfMayChangeApp({ children }: { children: ReactNode }) {
  return useMayChangeApp() ? <>{children}</> : null;
}
