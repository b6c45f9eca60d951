import { resolve } from 'node:path';

/**
 * The PTY Environment: what a PTY's process environment would be. A server concern, so the
 * overlay comes from the host: it is observed for the request location and the resolved working
 * directory, and a standalone server has none.
 */
export type Environment = Record<string, string>;

export interface PtyEnvironmentOverlay {
  observe(location: string, cwd: string): Environment;
}

export const standaloneOverlay: PtyEnvironmentOverlay = { observe: () => ({}) };

/** Terminal invariants the runtime forces whatever the caller or host asked for. */
export const FORCED_TERMINAL: Environment = { TERM: 'xterm-256color', OPENCODE_TERMINAL: '1' };

export interface PtyRequest {
  location: string;
  /** Relative to the location; the location itself when omitted. */
  cwd?: string;
  env: Environment;
}

/** Caller values, then the host overlay, then the forced terminal variables: later wins. */
export function ptyEnvironment(request: PtyRequest, overlay: PtyEnvironmentOverlay): { cwd: string; env: Environment } {
  const cwd = resolve(request.location, request.cwd ?? '.');
  return { cwd, env: { ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL } };
}
