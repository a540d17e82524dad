import { useEffect, useState } from 'react';
import { invoke } from '../../../bridge';
import { onEngineEvent } from '../../../engine-events';
import { Dialog } from '../../../components/Dialog';
import { hereZone, readableTimes } from '../../../components/times';
import { LIVE, type Run } from './types';

/** A run's log, in the reader's time zone; it follows the run while the run goes on. */
export function RunLogDialog(props: { shown: { run: Run; text: string }; close: () => void }) {
  const [log, setLog] = useState(props.shown);
  useEffect(() => setLog(props.shown), [props.shown]);
  // An open log follows its run.
  useEffect(() => {
    if (!LIVE.includes(log.run.status)) return;
    const off = onEngineEvent('request.changed', (e) => {
      if (e.id !== log.run.id) return;
      void invoke('app.requests.log', { params: { id: e.id } }).then(
        (a) =>
          a.ok &&
          setLog((cur) =>
            cur && cur.run.id === e.id ? { run: { ...cur.run, status: e.status }, text: a.data.text } : cur,
          ),
      );
    });
    return off;
  }, [log]);
  return (
    <Dialog title={`Log of “${log.run.title}”`} onClose={props.close}>
      <p className="hint">Times in your zone ({hereZone}).</p>
      <pre className="log-view" tabIndex={0}>
        {readableTimes(log.text)}
      </pre>
    </Dialog>
  );
}
