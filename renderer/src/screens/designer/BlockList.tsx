import { useState } from 'react';
import { useDraft, type Block, type BlockType } from '../../stores/designer/draft.store';
import { BlockEditor, type AppInfo } from './BlockEditor';
import type { BlockErrors } from './block-errors';

const NEW_BLOCK: { [T in BlockType]: () => Omit<Extract<Block, { type: T }>, 'id'> } = {
  heading: () => ({ type: 'heading', text: 'Heading', level: 2 }),
  text: () => ({ type: 'text', text: '' }),
  kpi: () => ({ type: 'kpi', label: 'Total', expression: 'Sum(Sales)' }),
  table: () => ({ type: 'table' }),
  chart: () => ({ type: 'chart' }),
  image: () => ({ type: 'image' }),
  break: () => ({ type: 'break' }),
};
const BLOCK_TYPES = Object.keys(NEW_BLOCK) as BlockType[];
export const BLOCK_LABEL: Record<BlockType, string> = {
  heading: 'Heading',
  text: 'Text',
  kpi: 'KPI',
  table: 'Table',
  chart: 'Chart',
  image: 'Picture',
  break: 'Page break',
};
let counter = 0;
const newId = () => `b${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The draft's blocks in order: each edited in place, moved, removed (undoable) or added. */
export function BlockList({
  blocks,
  app,
  errors,
}: {
  blocks: Block[];
  app: AppInfo | null;
  errors: BlockErrors['byBlock'];
}) {
  const draftEdited = useDraft((s) => s.draftEdited);
  const [adding, setAdding] = useState<BlockType>('kpi');
  const move = (i: number, by: number) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(Math.max(0, Math.min(next.length, i + by)), 0, b);
    draftEdited({ blocks: next });
  };
  return (
    <>
      {blocks.map((b, i) => {
        const name = `${BLOCK_LABEL[b.type]} (block ${i + 1})`;
        const problems = errors[b.id];
        return (
          <div key={b.id} className={`panel block${problems ? ' invalid' : ''}`} data-block-type={b.type}>
            <div className="block-head">
              <strong>
                {i + 1}. {BLOCK_LABEL[b.type]}
              </strong>
              <span>
                <button
                  type="button"
                  className="small"
                  aria-label={`Move ${name} up`}
                  onClick={() => move(i, -1)}
                  disabled={i === 0}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label={`Move ${name} down`}
                  onClick={() => move(i, 1)}
                  disabled={i === blocks.length - 1}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="small danger"
                  aria-label={`Remove ${name}`}
                  title="Remove (Ctrl+Z brings it back)"
                  onClick={() => draftEdited({ blocks: blocks.filter((x) => x.id !== b.id) })}
                >
                  ×
                </button>
              </span>
            </div>
            {problems && (
              <ul className="field-error block-problems" id={`b-${b.id}-problems`}>
                {problems.messages.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            )}
            <BlockEditor
              block={b}
              app={app}
              invalid={problems?.fields}
              change={(nb) => draftEdited({ blocks: blocks.map((x) => (x.id === b.id ? nb : x)) }, `block:${b.id}`)}
            />
          </div>
        );
      })}
      {!blocks.length && <p className="empty">No blocks yet: add a heading, a KPI, a table or a chart below.</p>}
      <div className="inline-form">
        <label htmlFor="add-block">Add</label>
        <select
          id="add-block"
          value={adding}
          onChange={(e) => setAdding(BLOCK_TYPES.find((t) => t === e.target.value) ?? 'kpi')}
        >
          {BLOCK_TYPES.map((t) => (
            <option key={t} value={t}>
              {BLOCK_LABEL[t]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="primary"
          onClick={() => draftEdited({ blocks: [...blocks, { id: newId(), ...NEW_BLOCK[adding]() } as Block] })}
        >
          Add block
        </button>
      </div>
    </>
  );
}
