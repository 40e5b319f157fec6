import assert = require('node:assert/strict');
import * as path from 'node:path';
import { test } from 'node:test';

import { listPasses, probeProblem, probeServer, resolveServerPath } from '../src/server';
import { fakeRelax, missing, notExecutable } from './fakeBinary';
import { PASSES_OUTPUT } from './fixtures';

test('resolves the setting', () => {
  assert.equal(resolveServerPath('relax', '/ws', '/home/u'), 'relax');
  assert.equal(resolveServerPath('~/bin/relax', '/ws', '/home/u'), path.join('/home/u', 'bin/relax'));
  assert.equal(resolveServerPath('${workspaceFolder}/build/dev/cli/relax', '/ws', '/h'), '/ws/build/dev/cli/relax');
  assert.equal(resolveServerPath('build/release/cli/relax', '/ws', '/h'), '/ws/build/release/cli/relax');
  assert.equal(resolveServerPath('/opt/relax', '/ws', '/h'), '/opt/relax');
  assert.equal(resolveServerPath('build/relax', undefined, '/h'), 'build/relax');
});

test('a current binary is ok', async () => {
  const bin = fakeRelax('relax-ok', 'relax 0.1.0');
  assert.deepEqual(await probeServer(bin), { kind: 'ok', command: bin, version: '0.1.0' });
  assert.equal(probeProblem(await probeServer(bin), bin), undefined);
});

test('a missing binary: the message says how to fix it', async () => {
  const probe = await probeServer(missing);
  assert.equal(probe.kind, 'missing');
  const message = probeProblem(probe, missing)!;
  assert.match(message, /was not found/);
  assert.match(message, /relax\.path/);
  assert.match(message, /cmake --build --preset release/);
  const onPath = probeProblem(await probeServer('relax-surely-not-on-path-42'), 'relax-surely-not-on-path-42')!;
  assert.match(onPath, /not found on PATH/);
});

test('too old, unrecognized, failing, not executable', async () => {
  const old = await probeServer(fakeRelax('relax-old', 'relax 0.0.5'), '0.1.0');
  assert.equal(old.kind, 'too-old');
  assert.match(probeProblem(old, 'relax')!, /version 0\.0\.5; this extension needs relax 0\.1\.0 or newer/);

  const other = await probeServer(fakeRelax('relax-other', 'Relaxation Tool v9'));
  assert.equal(other.kind, 'unrecognized');
  assert.match(probeProblem(other, 'x')!, /does not look like the relax toolkit/);

  const failing = await probeServer(fakeRelax('relax-failing', 'boom', '', 3));
  assert.equal(failing.kind, 'failed');
  assert.match(probeProblem(failing, 'x')!, /cannot be used/);

  const plain = await probeServer(notExecutable('relax-plain'));
  assert.equal(plain.kind, 'failed');
  assert.match(probeProblem(plain, 'x')!, /not executable/);
});

test('lists the passes through relax passes', async () => {
  const list = await listPasses(fakeRelax('relax-passes', 'relax 0.1.0', PASSES_OUTPUT));
  assert.equal(list?.pipeline.length, 15);
  assert.equal(await listPasses(missing), undefined);
  assert.equal(await listPasses(fakeRelax('relax-nopasses', 'relax 0.1.0', 'nothing\n')), undefined);
});
