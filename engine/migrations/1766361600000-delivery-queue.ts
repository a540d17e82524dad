import { portableMigration } from './portable.js';

/**
 * Deliveries kept to be tried again (issue 57): a run's delivery to a folder, FTP, SFTP, WebDAV or
 * a cloud drive that failed for a passing cause, as rows of the one job kernel; a run's are removed
 * with it. Written once for both databases (portable.ts).
 */
const id = { varchar: 36 } as const;
export const { sqlite: DeliveryQueue1766361600000, postgres: PostgresDeliveryQueue1766361600000 } = portableMigration(
  'DeliveryQueue1766361600000',
  [
    {
      createTable: 'deliveries',
      columns: [
        { name: 'id', type: id, primary: true },
        { name: 'createdDate', type: 'datetime' },
        { name: 'modifiedDate', type: 'datetime' },
        { name: 'requestId', type: id },
        { name: 'taskReportId', type: id, nullable: true },
        { name: 'storageServiceId', type: id },
        { name: 'destination', type: 'text' },
        { name: 'path', type: 'text' },
        { name: 'variable', type: 'text', nullable: true },
        { name: 'files', type: 'text' },
        { name: 'status', type: { varchar: 10 } },
        { name: 'attempts', type: 'integer', default: 0 },
        { name: 'nextAttemptAt', type: 'datetime' },
        { name: 'giveUpAt', type: 'datetime' },
        { name: 'lastError', type: 'text', nullable: true },
        { name: 'deliveredAt', type: 'datetime', nullable: true },
        { name: 'claimedBy', type: { varchar: 64 }, nullable: true },
        { name: 'leaseUntil', type: 'datetime', nullable: true },
      ],
      foreignKeys: [{ column: 'requestId', references: 'requests', onDelete: 'CASCADE' }],
      indexes: [
        { name: 'IDX_deliveries_due', columns: ['status', 'nextAttemptAt'] },
        { name: 'IDX_deliveries_request', columns: ['requestId'] },
        { name: 'IDX_deliveries_lease', columns: ['status', 'leaseUntil'] },
      ],
    },
  ],
);
