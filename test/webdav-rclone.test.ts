// The same phone-folder scenarios against a second kind of server: rclone's `serve webdav`
// (Debian package `rclone`, installed by .ci/run), Basic authentication, on 127.0.0.1. Without
// rclone the suite fails: it is part of npm test, not optional.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasRclone, startRcloneDav } from './helpers/dav-servers.js';
import { phoneFolderScenarios } from './helpers/webdav-scenarios.js';

if (hasRclone()) phoneFolderScenarios('rclone', startRcloneDav);
else test('rclone serve webdav', () => assert.fail('rclone is not installed: apt-get install rclone (.ci/run installs it)'));
