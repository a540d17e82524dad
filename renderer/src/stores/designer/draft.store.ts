import { create } from 'zustand';
import type { DocBlock } from '../../../../engine/render/document';

export type BlockType = DocBlock['type'];
/** A block as it is being edited: its type's fields, some maybe not filled in yet. */
export type Block = { [T in BlockType]: { id: string; type: T } & Partial<Omit<Extract<DocBlock, { type: T }>, 'id' | 'type'>> }[BlockType];

/** Everything the designer lets a person change before Save: one draft, one Save, one undo history. */
export interface Draft {
  blocks: Block[];
  connectionId: string | null;
  filterIds: string[];
  isIteration: boolean;
  iterationFieldId: string;
  separator: string;
}

interface DraftState {
  reportId: string | null;
  draft: Draft | null;
  /** The draft as last saved (or loaded), to tell whether there is anything to lose. */
  saved: string;
  past: Draft[];
  future: Draft[];
  /** Typing in one field makes one undo step, not one per key. */
  lastKey: string | null;
  lastAt: number;
  draftLoaded(reportId: string, draft: Draft): void;
  draftEdited(change: Partial<Draft>, key?: string): void;
  undoRequested(): void;
  redoRequested(): void;
  /** The draft sent to Save was written: it is the new baseline (later edits stay unsaved). */
  draftSaved(sent: Draft): void;
}

const HISTORY = 200;
const TYPING_PAUSE_MS = 800;

export const useDraft = create<DraftState>((set, get) => ({
  reportId: null,
  draft: null,
  saved: '',
  past: [],
  future: [],
  lastKey: null,
  lastAt: 0,
  draftLoaded: (reportId, draft) => set({ reportId, draft, saved: JSON.stringify(draft), past: [], future: [], lastKey: null }),
  draftEdited(change, key) {
    const { draft, past, lastKey, lastAt } = get();
    if (!draft) return;
    const now = Date.now();
    const sameTyping = key !== undefined && key === lastKey && now - lastAt < TYPING_PAUSE_MS;
    set({ draft: { ...draft, ...change }, past: sameTyping ? past : [...past, draft].slice(-HISTORY), future: [], lastKey: key ?? null, lastAt: now });
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
}));

export const selectDirty = (s: DraftState) => s.draft !== null && JSON.stringify(s.draft) !== s.saved;
