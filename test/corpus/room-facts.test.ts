// The Room-schema facts kept in the repo (test/fixtures/room-facts) are still what
// scripts/extract-room-facts.ts extracts from the app's exported schemas in ../shared: a drift
// check, so the oracle tests that read the facts keep agreeing with the app's own files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINES, ROOM_FACTS_DIR, extractRoomFacts, roomFactsText } from '../../scripts/extract-room-facts.js';
import { shared } from './shared.js';

for (const line of LINES) {
  test(`room-facts/${line}.json is what the script extracts from room-schemas/${line} (npm run room-facts rewrites it)`, () => {
    const dir = shared('reference', 'room-schemas');
    shared('reference', 'room-schemas', line);
    const committed = readFileSync(join(ROOM_FACTS_DIR, `${line}.json`), 'utf8');
    const extracted = extractRoomFacts(line, dir);
    assert.deepEqual(JSON.parse(committed), JSON.parse(JSON.stringify(extracted)));
    assert.equal(committed, roomFactsText(extracted), 'the same text, so a regenerated file has no diff');
  });
}
