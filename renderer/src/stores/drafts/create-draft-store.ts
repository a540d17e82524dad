import { create, type StoreApi, type UseBoundStore } from 'zustand';

/** One thing being edited before Save (a report, a task): the draft, its saved baseline and its undo history. */
export interface DraftState<D> {
  /** Whose draft this is (a report's or a task's id): a screen shows only its own. */
  ownerId: string | null;
  draft: D | null;
  /** The draft as last saved (or loaded), to tell whether there is anything to lose. */
  saved: string;
  past: D[];
  future: D[];
  /** Typing in one field makes one undo step, not one per key. */
  lastKey: string | null;
  lastAt: number;
  draftLoaded(ownerId: string, draft: D): void;
  draftEdited(change: Partial<D>, key?: string): void;
  undoRequested(): void;
  redoRequested(): void;
  /** The draft sent to Save was written: it is the new baseline (later edits stay unsaved). */
  draftSaved(sent: D): void;
  /**
   * Save answered with the stored state: it is the new baseline, and the draft becomes `next`
   * (what was saved, with new items' ids; what failed kept as edited). History stays.
   */
  draftRebased(stored: D, next: D): void;
}

export type DraftStore<D> = UseBoundStore<StoreApi<DraftState<D>>>;

const HISTORY = 200;
const TYPING_PAUSE_MS = 800;

/** A store for one kind of draft: one draft, one Save, one undo history (the report and the task designers). */
export function createDraftStore<D extends object>(): DraftStore<D> {
  return create<DraftState<D>>((set, get) => ({
    ownerId: null,
    draft: null,
    saved: '',
    past: [],
    future: [],
    lastKey: null,
    lastAt: 0,
    draftLoaded: (ownerId, draft) =>
      set({ ownerId, draft, saved: JSON.stringify(draft), past: [], future: [], lastKey: null }),
    draftEdited(change, key) {
      const { draft, past, lastKey, lastAt } = get();
      if (!draft) return;
      const now = Date.now();
      const sameTyping = key !== undefined && key === lastKey && now - lastAt < TYPING_PAUSE_MS;
      set({
        draft: { ...draft, ...change },
        past: sameTyping ? past : [...past, draft].slice(-HISTORY),
        future: [],
        lastKey: key ?? null,
        lastAt: now,
      });
    },
    undoRequested() {
      const { draft, past, future } = get();
      if (!draft || !past.length) return;
      set({ draft: past[past.length - 1], past: past.slice(0, -1), future: [draft, ...future], lastKey: null });
    },
    redoRequested() {
      const { draft, past, future } = get();
      if (!draft || !future.length) return;
      set({ draft: future[0], past: [...past, draft], future: future.slice(1), lastKey: null });
    },
    draftSaved: (sent) => set({ saved: JSON.stringify(sent) }),
    draftRebased: (stored, next) => set({ draft: next, saved: JSON.stringify(stored), lastKey: null }),
  }));
}

export const selectDirty = <D>(s: DraftState<D>) => s.draft !== null && JSON.stringify(s.draft) !== s.saved;
