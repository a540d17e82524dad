import { contextBridge, ipcRenderer } from 'electron';

// The whole surface the page gets: invoke an operation by id, and listen to engine events.
contextBridge.exposeInMainWorld('broadsheet', {
  invoke: (op: string, input: unknown) => ipcRenderer.invoke('engine:invoke', op, input),
  on: (type: string, callback: (payload: unknown) => void) => {
    const listener = (_event: unknown, event: { type: string; payload: unknown }) => {
      if (event?.type === type) callback(event.payload);
    };
    ipcRenderer.on('engine:event', listener);
    return () => ipcRenderer.removeListener('engine:event', listener);
  },
});
