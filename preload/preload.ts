import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type DesktopApi, type EngineEvent } from '../engine/wire.js';

// The whole surface the page gets, as the wire contract declares it: invoke an operation by id,
// and listen to engine events.
const api: DesktopApi = {
  invoke: (op, input) => ipcRenderer.invoke(INVOKE_CHANNEL, op, input),
  on: (type, callback) => {
    const listener = (_event: unknown, event: EngineEvent) => {
      if (event?.type === type) callback(event.payload as never);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  },
};
contextBridge.exposeInMainWorld('broadsheet', api);
