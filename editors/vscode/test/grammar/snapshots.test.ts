// Snapshot tests of the grammar on every example of the repository (../../examples/*.relax),
// in vscode-tmgrammar-snap's format, with that package's tokenizer and renderer.
//
// vscode-tmgrammar-snap itself writes FILE.snap next to each FILE, which would put snapshots
// in the repository's examples/ folder; so this runner keeps them here, in snap/NAME.relax.snap,
// and fails on an example without one (the CLI would silently write it). After a grammar change,
// `npm run snap:update` (RELAX_UPDATE_SNAPSHOTS=1) rewrites them; review the diff.
import assert = require('node:assert/strict');
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { createRegistry } from 'vscode-tmgrammar-test/dist/common/index';
import { getVSCodeTokens, renderSnap } from 'vscode-tmgrammar-test/dist/snapshot/index';

const root = path.join(__dirname, '..', '..', '..'); // editors/vscode
const examples = path.join(root, '..', '..', 'examples');
const snapDir = path.join(root, 'test', 'grammar', 'snap');
const update = process.env.RELAX_UPDATE_SNAPSHOTS === '1';

const registry = createRegistry([
  { scopeName: 'source.relax', path: path.join(root, 'syntaxes', 'relax.tmLanguage.json'), language: 'relax' },
]);

const sources = fs
  .readdirSync(examples)
  .filter((f) => f.endsWith('.relax'))
  .sort();

test('there are examples to snapshot', () => {
  assert.ok(sources.length > 0, `no .relax files in ${examples}`);
});

for (const name of sources) {
  test(`snapshot of examples/${name}`, async () => {
    const source = fs.readFileSync(path.join(examples, name), 'utf8');
    const actual = renderSnap(await getVSCodeTokens(registry, 'source.relax', source));
    const snapFile = path.join(snapDir, `${name}.snap`);
    if (update) {
      fs.mkdirSync(snapDir, { recursive: true });
      fs.writeFileSync(snapFile, actual, 'utf8');
      return;
    }
    assert.ok(fs.existsSync(snapFile), `no snapshot ${path.relative(root, snapFile)}: run \`npm run snap:update\``);
    const expected = fs.readFileSync(snapFile, 'utf8');
    assert.equal(actual, expected, `examples/${name} tokenizes differently from its snapshot (npm run snap:update to accept)`);
  });
}

test('no snapshot without its example', () => {
  const snaps = fs.existsSync(snapDir) ? fs.readdirSync(snapDir).filter((f) => f.endsWith('.snap')) : [];
  const stale = snaps.filter((s) => !sources.includes(s.replace(/\.snap$/, '')));
  if (update) for (const s of stale) fs.rmSync(path.join(snapDir, s));
  else assert.deepEqual(stale, [], 'snapshots of examples that are gone (npm run snap:update removes them)');
});
