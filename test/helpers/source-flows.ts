// A host for running fixture sources through the engine: a real store file for cookies and
// caches, private addresses allowed (the site is on 127.0.0.1), a fixed clock, lines collected.
import type { EngineHost } from '../../src/sources/engine/types.js';
import type { JsEngine } from '../../src/sources/js/index.js';
import { newStore } from './domain.js';

export const NOW = 1_700_000_000_000;

export function fixtureHost(options: { log?: (line: string) => void; js?: JsEngine } = {}): EngineHost {
  return {
    storage: newStore(),
    allowPrivateHosts: true,
    timeoutMs: 10_000,
    now: () => NOW,
    ...(options.log ? { log: options.log } : {}),
    ...(options.js ? { js: options.js } : {}),
  };
}
