// `store.webdav(options)`, added by the Node entry (src/index.ts): the sync keeps its state file
// (below schema 71) through node:fs, so the store's own module, which the browser entry shares,
// must not import it.
import type { SchemaVersion } from '../schema/index.js';
import { Store } from '../store/store.js';
import { WebDavSync, type WebDavOptions } from './sync.js';

declare module '../store/store.js' {
  interface Store<V extends SchemaVersion = 62> {
    /**
     * The app's WebDAV folder, with this store as one more device: `backup()`, `list()`,
     * `restore(name?)`, `progress({ direction })`, each returning a report. (Node entry only.)
     */
    webdav(options: WebDavOptions): WebDavSync;
  }
}

Store.prototype.webdav = function webdav(this: Store<SchemaVersion>, options: WebDavOptions): WebDavSync {
  return new WebDavSync(this, options);
};
