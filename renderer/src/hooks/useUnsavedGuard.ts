import { useEffect } from 'react';
import { leaveGuarded } from '../stores/nav/nav.store';
import { askConfirm } from '../stores/feedback/confirm.store';

/**
 * While there is unsaved work, leaving asks first: in-app navigation with an in-app question, a
 * reload or a closed window with the browser's own (the only one a page may show then).
 */
export function useUnsavedGuard(dirty: boolean, what: string, save?: () => Promise<boolean>) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    leaveGuarded(() =>
      askConfirm({
        title: 'Leave without saving?',
        message: `Your changes to ${what} since the last save will be lost.`,
        confirmLabel: 'Leave without saving',
        cancelLabel: 'Keep editing',
        // Leaving after a save that works; a refused save keeps the person here, its problems shown.
        ...(save ? { alternative: { label: 'Save and leave', run: save } } : {}),
      }),
    );
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      leaveGuarded(null);
    };
  }, [dirty, what, save]);
}
