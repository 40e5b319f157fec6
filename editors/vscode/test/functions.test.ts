import assert = require('node:assert/strict');
import { test } from 'node:test';

import { functionAt, moduleFunctions, runnableFunctions } from '../src/functions';
import { LENSES, OUTLINE, range } from './fixtures';

test('the module functions, in order', () => {
  assert.deepEqual(moduleFunctions(OUTLINE).map((f) => f.name), ['scale', 'main']);
  assert.deepEqual(moduleFunctions(null), []);
  // Without a module symbol, the functions are at the top.
  assert.deepEqual(moduleFunctions(OUTLINE[0].children!).map((f) => f.name), ['scale', 'main']);
});

test('only functions with a Run lens can be run; without lenses, all', () => {
  assert.deepEqual(runnableFunctions(OUTLINE, LENSES).map((f) => f.name), ['main']);
  assert.deepEqual(runnableFunctions(OUTLINE, undefined).map((f) => f.name), ['scale', 'main']);
  assert.deepEqual(runnableFunctions(OUTLINE, null), []);
});

test('the function under the cursor', () => {
  const fs = moduleFunctions(OUTLINE);
  assert.equal(functionAt(fs, { line: 26, character: 8 })?.name, 'main');
  assert.equal(functionAt(fs, { line: 12, character: 0 })?.name, 'scale');
  assert.equal(functionAt(fs, { line: 2, character: 0 }), undefined);
  const nested = [...fs, { name: 'inner', range: range(23, 24), selectionRange: range(23, 23) }];
  assert.equal(functionAt(nested, { line: 23, character: 4 })?.name, 'inner');
});
