import * as electron from 'electron';
import { join } from 'node:path';
import { startDesktop } from './desktop.js';

// dist/main/main.cjs → dist/
startDesktop(electron, { distDir: join(__dirname, '..'), devServerUrl: process.env.BROADSHEET_DEV_SERVER }).catch(
  (e) => {
    electron.dialog.showErrorBox('Broadsheet could not start', e instanceof Error ? e.message : String(e));
    electron.app.exit(1);
  },
);
