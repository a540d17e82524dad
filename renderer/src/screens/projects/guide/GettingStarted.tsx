import { useState } from 'react';
import { useGettingStarted } from './use-getting-started';

const HIDDEN = 'broadsheet.gettingStarted.hidden';

/**
 * A short checklist from a first start to a first report mailed and in the hub, on the first
 * screen: each step ticked from what is stored, the next one to do marked, hidden on request.
 */
export function GettingStarted() {
  const [hidden, setHidden] = useState(() => localStorage.getItem(HIDDEN) === 'yes');
  const steps = useGettingStarted();
  if (hidden || !steps) return null;
  const next = steps.find((s) => !s.done);
  const doneCount = steps.filter((s) => s.done).length;
  const hide = () => {
    localStorage.setItem(HIDDEN, 'yes');
    setHidden(true);
  };
  return (
    <section className="panel guide" aria-labelledby="guide-title">
      <div className="block-head">
        <h2 id="guide-title">{next ? 'Getting started' : 'Your first report is out'}</h2>
        <button type="button" className="small" onClick={hide}>
          Hide this guide
        </button>
      </div>
      <p className="hint">
        {doneCount} of {steps.length} done
        {next
          ? `: next, ${next.title.toLowerCase()}.`
          : '. Add recipients and a schedule to your task when you are ready.'}
      </p>
      <progress max={steps.length} value={doneCount} aria-label="Getting started: steps done" />
      <ol className="guide-steps">
        {steps.map((s) => (
          <li
            key={s.key}
            className={s.done ? 'done' : s === next ? 'next' : ''}
            aria-current={s === next ? 'step' : undefined}
          >
            <span className="guide-mark" aria-hidden="true">
              {s.done ? '✓' : '○'}
            </span>
            <span>
              <a href={s.href}>{s.title}</a>
              <span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
              {!s.done && <span className="hint"> {s.how}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
