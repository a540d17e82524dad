import { REPORT_TYPES as KNOWN_REPORT_TYPES, type OUTPUT_FORMATS } from '../core/enumerations.js';

/** What a report is designed as; it decides the formats it can be generated in. */
export type ReportType = (typeof KNOWN_REPORT_TYPES)[number];

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Which formats each report type offers (the design's table); each has its own renderer. */
export const FORMATS_BY_TYPE: Record<ReportType, OutputFormat[]> = {
  Word: ['Docx', 'Pdf', 'Html'],
  Excel: ['Xlsx', 'Csv', 'Pdf', 'Html'],
  PowerPoint: ['Pptx', 'Pdf'],
  Html: ['Html', 'Pdf'],
};

/**
 * What a template report offers: its own format and PDF (through LibreOffice), and CSV of an Excel
 * template's first sheet. No HTML from Office templates: LibreOffice's HTML of them keeps pictures
 * as separate files, which a mail or a folder would lose.
 */
export const TEMPLATE_FORMATS_BY_TYPE: Record<ReportType, OutputFormat[]> = {
  Word: ['Docx', 'Pdf'],
  Excel: ['Xlsx', 'Csv', 'Pdf'],
  PowerPoint: ['Pptx', 'Pdf'],
  Html: ['Html', 'Pdf'],
};

/** The formats a report offers: a template report's, or its type's for a block document. */
export const formatsOf = (report: { type: ReportType; templateFile?: string | null }) =>
  (report.templateFile ? TEMPLATE_FORMATS_BY_TYPE : FORMATS_BY_TYPE)[report.type];

export const REPORT_TYPES: readonly ReportType[] = KNOWN_REPORT_TYPES;

export const FILE_TYPES: Record<OutputFormat, { extension: string; mime: string }> = {
  Pdf: { extension: 'pdf', mime: 'application/pdf' },
  Xlsx: { extension: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  Docx: { extension: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  Pptx: { extension: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  Html: { extension: 'html', mime: 'text/html; charset=utf-8' },
  Csv: { extension: 'csv', mime: 'text/csv; charset=utf-8' },
  Png: { extension: 'png', mime: 'image/png' },
};

/** Every type a generated or published file may have: each format's, and a zip of several. */
export const REPORT_FILE_MIMES: readonly string[] = [
  ...new Set(Object.values(FILE_TYPES).map((t) => t.mime)),
  'application/zip',
  'application/octet-stream',
];

/** Matches a requested format name case-insensitively ("pdf", "PDF", "Pdf"). */
export function parseFormat(name: string): OutputFormat | null {
  return (Object.keys(FILE_TYPES) as OutputFormat[]).find((f) => f.toLowerCase() === name.trim().toLowerCase()) ?? null;
}

export interface ProtectionOptions {
  openPassword?: string | null;
  writePassword?: string | null;
}
