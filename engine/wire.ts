// The one contract between the engine's hosts and the renderer: channel names, what an answer
// looks like, how files and sessions cross, and the engine's events. Imported by main/ and
// preload/ (values) and by renderer/ (types only), so a change here fails every side's build.
import type { Envelope } from './core/envelope.js';

export type { EngineEvent, EngineEvents, EngineEventType } from './core/events.js';
import type { EngineEvents, EngineEventType } from './core/events.js';

/** The IPC channel of operation calls (renderer → main) and of engine events (main → renderer). */
export const INVOKE_CHANNEL = 'engine:invoke';
export const EVENT_CHANNEL = 'engine:event';
/** Desktop only: open a template report's file in the user's own Office application (renderer → main). */
export const OPEN_TEMPLATE_CHANNEL = 'desktop:open-template';
/** The desktop's company sign-in: the system browser and a loopback redirect (main/company-sign-in.ts). */
export const SIGN_IN_WITH_CHANNEL = 'desktop:sign-in-with';
/** The desktop connects a cloud drive the same way: the system browser and a loopback redirect (main/cloud-connect.ts). */
export const CONNECT_DRIVE_CHANNEL = 'desktop:connect-drive';

/** The HTTP header by which the renderer's door says an operation started or ended a session. */
export const SESSION_HEADER = 'x-broadsheet-session';
export type SessionChange = 'start' | 'end';

/** What one call answers on either transport: always a value, never an error thrown across the bridge. */
export interface WireAnswer {
  status: number;
  envelope: Envelope<unknown>;
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
}

/** A file as it reaches the renderer, over IPC and over the renderer's HTTP door alike. */
export interface WireFile {
  fileName: string;
  mime: string;
  base64: string;
}

/** The whole surface the preload gives the page as `window.broadsheet`. */
export interface DesktopApi {
  invoke(op: string, input: unknown): Promise<WireAnswer>;
  on<K extends EngineEventType>(type: K, callback: (payload: EngineEvents[K]) => void): () => void;
  /** Opens a template report's file in its Office application; each save there uploads a new version ('template.synced'). */
  openTemplate(reportId: string): Promise<WireAnswer>;
  /** Signs in through an OpenID provider in the system browser; the session stays in the main process. */
  signInWith(providerId: string): Promise<WireAnswer>;
  /** Connects a cloud drive storage service to an account in the system browser (`{ id }` once connected). */
  connectDrive(serviceId: string): Promise<WireAnswer>;
}

// The interface's enumerations, for the renderer's selects (the engine's schemas use the same lists).
export * from './core/enumerations.js';
