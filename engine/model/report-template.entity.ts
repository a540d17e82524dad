import { createHash } from 'node:crypto';
import { EntitySchema } from 'typeorm';
import { ref, text } from '../core/entity-base.js';

/**
 * A template report's file (Word, Excel, PowerPoint or HTML), kept in the database beside its report
 * so a backup, a restore and a kill -9 treat it as the report itself. One row a report: an upload
 * replaces it and counts a version.
 */
export interface ReportTemplateRow {
  reportId: string;
  fileName: string;
  data: Buffer;
  size: number;
  sha256: string;
  version: number;
  modifiedDate: Date;
  modifiedBy: string | null;
}

export const ReportTemplate = new EntitySchema<ReportTemplateRow>({
  name: 'ReportTemplate',
  tableName: 'report_templates',
  columns: {
    reportId: { type: 'varchar', length: 36, primary: true },
    fileName: text(false),
    data: { type: 'blob' },
    size: { type: 'integer' },
    sha256: { type: 'varchar', length: 64 },
    version: { type: 'integer' },
    modifiedDate: { type: 'datetime' },
    modifiedBy: ref(),
  },
  foreignKeys: [{ target: 'Report', columnNames: ['reportId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});

/** A template row for a report's file: its checksum, size and the next version. */
export function templateRowFor(
  reportId: string,
  fileName: string,
  data: Buffer,
  version: number,
  by: string | null,
  now: Date,
): ReportTemplateRow {
  return {
    reportId,
    fileName,
    data,
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    version,
    modifiedDate: now,
    modifiedBy: by,
  };
}
