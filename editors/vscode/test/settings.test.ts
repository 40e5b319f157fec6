import assert = require('node:assert/strict');
import { test } from 'node:test';

import { readSettings, selectors, serverArgs, serverSettings, settingsPayload } from '../src/settings';

function from(values: Record<string, unknown>) {
  return readSettings((key) => values[key]);
}

test('defaults: relax on PATH, nothing sent to the server', () => {
  const s = from({ path: 'relax', 'format.lineWidth': null, 'lint.select': [], 'lint.ignore': [] });
  assert.deepEqual(s, {
    path: 'relax',
    logFile: undefined,
    lineWidth: undefined,
    profile: undefined,
    lintSelect: [],
    lintExtendSelect: [],
    lintIgnore: [],
  });
  assert.deepEqual(serverSettings(s), {});
  assert.deepEqual(settingsPayload(s), { relax: {} });
  assert.deepEqual(serverArgs(s), ['lsp']);
});

test('unset keys read as defaults', () => {
  const s = from({});
  assert.equal(s.path, 'relax');
  assert.deepEqual(settingsPayload(s), { relax: {} });
});

test('line width and lint selectors are passed on, wrapped in "relax"', () => {
  const s = from({ 'format.lineWidth': 120, 'lint.select': ['W10', ' E ', 'W10', ''], 'lint.ignore': ['W1001'] });
  assert.deepEqual(settingsPayload(s), {
    relax: { format: { lineWidth: 120 }, lint: { select: ['W10', 'E'], ignore: ['W1001'] } },
  });
});

test('the profile and extendSelect are passed on when set', () => {
  assert.deepEqual(serverSettings(from({ 'format.profile': 'current', 'lint.extendSelect': ['w1012'] })), {
    format: { profile: 'current' },
    lint: { extendSelect: ['W1012'] },
  });
  assert.deepEqual(serverSettings(from({ 'format.profile': 'newest' })), {});
  assert.deepEqual(serverSettings(from({ 'format.profile': null })), {});
});

test('only the lint key that is set', () => {
  assert.deepEqual(serverSettings(from({ 'lint.ignore': ['ALL'] })), { lint: { ignore: ['ALL'] } });
  assert.deepEqual(serverSettings(from({ 'lint.select': ['E'] })), { lint: { select: ['E'] } });
});

test('a line width that is not a positive integer is left out', () => {
  for (const w of [0, -3, 99.5, '120', Number.NaN, null])
    assert.deepEqual(serverSettings(from({ 'format.lineWidth': w })), {}, String(w));
});

test('selectors ignore what is not a list of strings', () => {
  assert.deepEqual(selectors('W1001'), []);
  assert.deepEqual(selectors([1, 'W1', null, 'W1']), ['W1']);
  assert.deepEqual(selectors(['w1001', 'all', 'W1001']), ['W1001', 'ALL']);
});

test('the log file becomes --log', () => {
  const s = from({ path: ' /opt/relax/bin/relax ', 'server.logFile': '/tmp/relax-lsp.log' });
  assert.equal(s.path, '/opt/relax/bin/relax');
  assert.deepEqual(serverArgs(s), ['lsp', '--log', '/tmp/relax-lsp.log']);
  assert.deepEqual(serverArgs(from({ 'server.logFile': '  ' })), ['lsp']);
});
