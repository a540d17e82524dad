import type { DocBlock } from '../../../../engine/render/document';
import type { Draft } from '../../stores/designer/draft.store';

/**
 * The draft as the engine takes it, for a preview and for Save alike. Blocks may still miss fields:
 * the engine checks the document and names what is missing, block by block.
 */
export function draftRequest(draft: Draft) {
  return {
    document: { blocks: draft.blocks as DocBlock[] },
    ...(draft.connectionId ? { connectionId: draft.connectionId } : {}),
    filterIds: draft.filterIds,
    isIteration: draft.isIteration,
    iterationFields: draft.iterationFieldId ? [{ fieldID: draft.iterationFieldId, order: 0 }] : [],
  };
}
