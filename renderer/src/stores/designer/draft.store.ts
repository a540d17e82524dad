import type { DocBlock } from '../../../../engine/render/document';
import { createDraftStore } from '../drafts/create-draft-store';

export { selectDirty } from '../drafts/create-draft-store';
export type BlockType = DocBlock['type'];
/** A block as it is being edited: its type's fields, some maybe not filled in yet. */
export type Block = {
  [T in BlockType]: { id: string; type: T } & Partial<Omit<Extract<DocBlock, { type: T }>, 'id' | 'type'>>;
}[BlockType];

/** Everything the designer lets a person change before Save: one draft, one Save, one undo history. */
export interface Draft {
  blocks: Block[];
  connectionId: string | null;
  filterIds: string[];
  isIteration: boolean;
  iterationFieldId: string;
  separator: string;
}

export const useDraft = createDraftStore<Draft>();
