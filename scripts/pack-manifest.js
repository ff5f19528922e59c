// `npm pack` and `npm publish` (prepack/postpack): the packed package.json leaves out the
// `prepare` script. npm runs `prepare` only in a clone, a git dependency or a folder installed by
// path, never for a tarball from the registry, yet npm 11 lists a packed `prepare` as an install
// script "not yet covered by allowScripts" in every project that installs the tarball. So
// `strip` takes it out just before the tarball is made and `restore` puts the file back as it
// was, byte for byte, right after (the same pattern as the pinst package). Plain JavaScript: it
// runs before anything is compiled.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const manifest = join(root, 'package.json');
const saved = join(root, '.package.json.packing');

const action = process.argv[2];
if (action === 'strip') {
  // A copy left by a pack that stopped half-way is the real manifest: restore it first.
  if (existsSync(saved)) renameSync(saved, manifest);
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(saved, text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(saved)) renameSync(saved, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.js strip|restore');
  process.exit(2);
}
