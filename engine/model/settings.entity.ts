import { EntitySchema } from 'typeorm';

/** System settings as key → JSON value (authentication methods, setup state, …). */
export interface SettingRow {
  key: string;
  value: unknown;
  modifiedDate: Date;
}

export const Setting = new EntitySchema<SettingRow>({
  name: 'Setting',
  tableName: 'settings',
  columns: {
    key: { type: 'varchar', length: 64, primary: true },
    value: { type: 'simple-json' },
    modifiedDate: { type: 'datetime' },
  },
});
