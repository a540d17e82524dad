import type { ProjectTaskRow } from './use-project-workspace';

/** The tasks that distribute this project's reports: where a report goes once it is designed. */
export function TasksPanel({ tasks }: { tasks: ProjectTaskRow[] }) {
  return (
    <div className="panel">
      <h2>Tasks</h2>
      <ul className="cards">
        {tasks.map((t) => (
          <li key={t.id}>
            <a href={`#/tasks/${t.id}`}>{t.name}</a>
            {!t.isActive && <span className="badge">disabled</span>}
            {t.testMode && <span className="badge">test mode</span>}
          </li>
        ))}
        {!tasks.length && (
          <li className="empty">
            No task distributes this project's reports yet: choose “Distribute” on a report to mail it and publish it to
            the hub.
          </li>
        )}
      </ul>
    </div>
  );
}
