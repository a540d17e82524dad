import { describe, expect, it, vi } from 'vitest';
import { covers } from '../support/covers.js';

const exposed: Record<string, any> = {};
const listeners: ((e: unknown, ev: unknown) => void)[] = [];
const invoked: unknown[][] = [];
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => (invoked.push(args), { status: 200 }),
    on: (_c: string, l: (e: unknown, ev: unknown) => void) => listeners.push(l),
    removeListener: (_c: string, l: (e: unknown, ev: unknown) => void) => listeners.splice(listeners.indexOf(l), 1),
  },
}));

describe(covers('preload', 'v1.groups.list'), () => {
  it('exposes only window.broadsheet.invoke, .on, .openTemplate, .signInWith and .connectDrive', async () => {
    await import('../../preload/preload.js');
    expect(Object.keys(exposed)).toEqual(['broadsheet']);
    expect(Object.keys(exposed.broadsheet).sort()).toEqual([
      'connectDrive',
      'invoke',
      'on',
      'openTemplate',
      'signInWith',
    ]);
    await exposed.broadsheet.invoke('v1.groups.list', { query: {} });
    expect(invoked).toEqual([['engine:invoke', 'v1.groups.list', { query: {} }]]);
    const got: unknown[] = [];
    const off = exposed.broadsheet.on('import.progress', (p: unknown) => got.push(p));
    listeners[0]({}, { type: 'import.progress', payload: { percent: 50 } });
    listeners[0]({}, { type: 'other', payload: {} });
    off();
    expect(got).toEqual([{ percent: 50 }]);
    expect(listeners).toHaveLength(0);
    await exposed.broadsheet.openTemplate('9b2f0c1e-0000-4000-8000-000000000001');
    expect(invoked.at(-1)).toEqual(['desktop:open-template', '9b2f0c1e-0000-4000-8000-000000000001']);
    await exposed.broadsheet.signInWith('9b2f0c1e-0000-4000-8000-000000000002');
    expect(invoked.at(-1)).toEqual(['desktop:sign-in-with', '9b2f0c1e-0000-4000-8000-000000000002']);
    await exposed.broadsheet.connectDrive('9b2f0c1e-0000-4000-8000-000000000003');
    expect(invoked.at(-1)).toEqual(['desktop:connect-drive', '9b2f0c1e-0000-4000-8000-000000000003']);
  });
});
