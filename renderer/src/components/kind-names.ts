/**
 * How a kind stored as one word reads to a person: "GoogleDrive" is Google Drive, "SQLServer" is SQL
 * Server. Brands written as one word (OneDrive, SharePoint, PostgreSQL, MySQL, SQLite) stay as they are.
 */
const SPOKEN: Record<string, string> = {
  GoogleDrive: 'Google Drive',
  SQLServer: 'SQL Server',
};

export const kindName = (kind: string) => SPOKEN[kind] ?? kind;
