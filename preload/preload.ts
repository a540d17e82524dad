import { contextBridge, ipcRenderer } from 'electron';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  OPEN_TEMPLATE_CHANNEL,
  SIGN_IN_WITH_CHANNEL,
  CONNECT_DRIVE_CHANNEL,
  type DesktopApi,
  type EngineEvent,
} from '../engine/wire.js';

// The whole surface the page gets, as the wire contract declares it: invoke an operation by id,
// listen to engine events, and open a template in the user's Office application.
const api: DesktopApi = {
  invoke: (op, input) => ipcRenderer.invoke(INVOKE_CHANNEL, op, input),
  on: (type, callback) => {
    const listener = (_event: unknown, event: EngineEvent) => {
      if (event?.type === type) callback(event.payload as never);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  },
  openTemplate: (reportId) => ipcRenderer.invoke(OPEN_TEMPLATE_CHANNEL, reportId),
  signInWith: (providerId) => ipcRenderer.invoke(SIGN_IN_WITH_CHANNEL, providerId),
  connectDrive: (serviceId) => ipcRenderer.invoke(CONNECT_DRIVE_CHANNEL, serviceId),
};
contextBridge.exposeInMainWorld('broadsheet', api);
