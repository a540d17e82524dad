import type { FieldError } from '../../bridge';
import { lowerFirst, plainMessage, readable } from '../../components/field-errors';
import type { Block } from '../../stores/designer/draft.store';

/** A Save's refusals sorted by block: the engine names "body.document.blocks.6.expression". */
export interface BlockErrors {
  /** By block id: the field keys refused (for marking) and the messages to show in the block. */
  byBlock: Record<string, { fields: Record<string, string>; messages: string[] }>;
  /** Refusals about the report's settings, each a sentence naming what it is about. */
  other: string[];
}

const AT_BLOCK = /^body\.document\.blocks\.(\d+)(?:\.(\w+))?/;

export function placeBlockErrors(details: FieldError[], blocks: Block[]): BlockErrors {
  const out: BlockErrors = { byBlock: {}, other: [] };
  for (const d of details) {
    const m = AT_BLOCK.exec(d.field);
    const block = m ? blocks[Number(m[1])] : undefined;
    const message = plainMessage(d.message);
    if (!m || !block) {
      const about = d.field.split('.').filter((p) => p !== 'body' && !/^\d+$/.test(p))[0];
      out.other.push(about ? `${readable(about)}: ${lowerFirst(message)}` : message);
      continue;
    }
    const entry = (out.byBlock[block.id] ??= { fields: {}, messages: [] });
    const field = m[2] ?? '';
    entry.fields[field] = message;
    entry.messages.push(field ? `${readable(field)}: ${lowerFirst(message)}` : message);
  }
  return out;
}

/** "body.document.blocks.6.expression: …" in a sentence becomes "Block 7: …". */
export const withBlockNumbers = (text: string) =>
  text.replace(/(?:body\.)?document\.blocks\.(\d+)(?:\.[\w.]+)?/g, (_all, i: string) => `Block ${Number(i) + 1}`);
