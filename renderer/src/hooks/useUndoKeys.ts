import { useEffect } from 'react';
import type { DraftStore } from '../stores/drafts/create-draft-store';

/**
 * Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes a draft change, in a field too: the draft's
 * history holds what was typed, a word at a time, so the browser's own undo (which a controlled
 * field loses track of) is not used.
 */
export function useUndoKeys<D>(store: DraftStore<D>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) store.getState().undoRequested();
      else if ((key === 'z' && e.shiftKey) || key === 'y') store.getState().redoRequested();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
