import { portableMigration } from './portable.js';

/**
 * Hub occurrences found by their run: a publish first looks for what an earlier attempt at the
 * same run published (to replace it, never add to it), and without this index that look read
 * every occurrence of the task report's files — a fifth of a 500-file publish (the bench). Written
 * once for both databases (portable.ts).
 */
export const { sqlite: HubOccurrencesByRun1766448000000, postgres: PostgresHubOccurrencesByRun1766448000000 } =
  portableMigration('HubOccurrencesByRun1766448000000', [
    { createIndex: 'IDX_hub_occurrences_request', on: 'hub_file_occurrences', columns: ['requestId'] },
  ]);
