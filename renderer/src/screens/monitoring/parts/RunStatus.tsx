/** A run's status, with its files' progress while it runs. */
export function Status({ run }: { run: { status: string | null; progress: { done: number; total: number } | null } }) {
  if (!run.status) return <span className="empty">never run</span>;
  const p = run.progress;
  return (
    <span className={`status status-${run.status}`}>
      {run.status}
      {run.status === 'running' && p && p.total > 0 && (
        <progress max={p.total} value={p.done} aria-label={`${p.done} of ${p.total} files`}>
          {p.done}/{p.total}
        </progress>
      )}
      {run.status === 'running' && p && p.total > 0 && ` ${p.done}/${p.total}`}
    </span>
  );
}
