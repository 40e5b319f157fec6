import assert = require('node:assert/strict');
import { test } from 'node:test';

import { checkVersion, compareVersions, MIN_SERVER_VERSION, parseVersion } from '../src/version';

test('parses what relax --version prints', () => {
  assert.deepEqual(parseVersion('relax 0.1.0\n'), [0, 1, 0]);
  assert.deepEqual(parseVersion('relax v1.2.3-dev+abc'), [1, 2, 3]);
  assert.deepEqual(parseVersion('relax 2.0'), [2, 0, 0]);
  assert.equal(parseVersion('Python 3.11.2'), undefined);
  assert.equal(parseVersion(''), undefined);
  assert.equal(parseVersion('relaxed 1.0.0'), undefined);
});

test('compares versions component by component', () => {
  assert.equal(compareVersions([0, 1, 0], [0, 1, 0]), 0);
  assert.equal(compareVersions([0, 9, 0], [0, 10, 0]), -1);
  assert.equal(compareVersions([1, 0, 0], [0, 99, 99]), 1);
});

test('the minimum is accepted, older is refused, garbage is unrecognized', () => {
  assert.deepEqual(checkVersion(`relax ${MIN_SERVER_VERSION}`), { ok: true, version: MIN_SERVER_VERSION });
  assert.deepEqual(checkVersion('relax 0.0.9', '0.1.0'), { ok: false, reason: 'too-old', version: '0.0.9', minimum: '0.1.0' });
  assert.deepEqual(checkVersion('relax 0.2.0', '0.1.0'), { ok: true, version: '0.2.0' });
  const bad = checkVersion('usage: something else\n');
  assert.equal(bad.ok, false);
  assert.equal(!bad.ok && bad.reason, 'unrecognized');
});
