import { useEffect, useState } from 'react';
import { invoke } from '../../../bridge';
import { mayCall } from '../../../stores/session/session.store';

/** One step from a first start to a first report delivered, done as the engine's own lists say. */
export interface GuideStep {
  key: 'mail' | 'report' | 'task' | 'run' | 'hub';
  title: string;
  how: string;
  href: string;
  done: boolean;
}

const any = async (a: Promise<{ ok: boolean; data?: unknown }>) => {
  const answer = await a;
  return answer.ok && Array.isArray(answer.data) && answer.data.length > 0;
};

/**
 * The getting-started steps, each read from what is stored (a mail server, a report, a task, a
 * finished run, a file in the hub), so the guide follows what was done wherever it was done. Read
 * again when the screen opens; null until the answers come.
 */
export function useGettingStarted(): GuideStep[] | null {
  const [steps, setSteps] = useState<GuideStep[] | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const [mail, report, task, run, hub] = await Promise.all([
        mayCall('app.mailServers.list') ? any(invoke('app.mailServers.list', {})) : Promise.resolve(false),
        any(invoke('v1.reports.listOwn', { query: { page_size: 1 } })),
        any(invoke('v1.tasks.list', { query: { page_size: 1 } })),
        Promise.all(
          ['completed', 'warning'].map((status) =>
            any(invoke('app.requests.list', { query: { page_size: 1, status } })),
          ),
        ).then((found) => found.some(Boolean)),
        any(invoke('v1.files.list', { query: { page_size: 1 } })),
      ]);
      if (!live) return;
      setSteps([
        {
          key: 'mail',
          title: 'Set up the mail server',
          how: 'Settings › Mail: its host, port and sender, then send a test mail.',
          href: '#/settings/mail',
          done: mail,
        },
        {
          key: 'report',
          title: 'Make a report',
          how: 'Open a project and create a report, blank or from your own Office file.',
          href: '#/projects',
          done: report,
        },
        {
          key: 'task',
          title: 'Make a task that distributes it',
          how: 'On the report in its project, choose Distribute: the task mails it to you and publishes it to the hub.',
          href: '#/projects',
          done: task,
        },
        {
          key: 'run',
          title: 'Run the task',
          how: 'On the task page, choose Run now; Monitoring shows how it went and who was mailed.',
          href: '#/tasks',
          done: run,
        },
        {
          key: 'hub',
          title: 'Find the report in the hub',
          how: 'The hub keeps every file a task published, for the people it names.',
          href: '#/hub',
          done: hub,
        },
      ]);
    })();
    return () => {
      live = false;
    };
  }, []);
  return steps;
}
