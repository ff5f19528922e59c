// Backups and reading progress against a real WebDAV server (webdav-server, from npm) on 127.0.0.1
// with Basic authentication, in a folder prepared by requests made the way the app makes them.
import { startNodeDav } from './helpers/dav-servers.js';
import { phoneFolderScenarios } from './helpers/webdav-scenarios.js';

phoneFolderScenarios('webdav-server', startNodeDav);
