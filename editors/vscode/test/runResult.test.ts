import assert = require('node:assert/strict');
import { test } from 'node:test';

import { formatMs, formatRunResult, isRunResult } from '../src/runResult';

test('a run with one tensor output', () => {
  const text = formatRunResult(
    {
      function: 'main',
      inputs: [
        { name: 'x', from: 'random (seed 0)' },
        { name: 'w', from: '/tmp/w.npy' },
      ],
      outputs: [{ shape: [2, 3], dtype: 'float32', summary: '[[1, 2, 3], [4, 5, 6]]' }],
      compileMs: 812.25,
      runMs: 0.0421,
    },
    'mlp.relax',
  );
  assert.equal(
    text,
    [
      'relax.run main (mlp.relax)',
      '  inputs: x = random (seed 0), w = /tmp/w.npy',
      '  output: float32[2, 3]  [[1, 2, 3], [4, 5, 6]]',
      '  compile 812 ms, run 0.042 ms',
    ].join('\n'),
  );
});

test('several outputs, a scalar, a multi-line summary, a non-tensor value', () => {
  const text = formatRunResult({
    function: 'f',
    outputs: [
      { shape: [], dtype: 'int32', summary: '7' },
      { shape: [4, 4], dtype: 'float16', summary: '[[0, 0, 0, 0],\n [1, 1, 1, 1],\n ...]\n' },
      { value: 'R.shape([2, 3])' },
      { tuple: [{ shape: [1], dtype: 'bool', summary: '[True]' }] },
    ],
    compileMs: 12.34,
    runMs: 1.5,
  });
  assert.equal(
    text,
    [
      'relax.run f',
      '  output 0: int32[]  7',
      '  output 1: float16[4, 4]',
      '      [[0, 0, 0, 0],',
      '       [1, 1, 1, 1],',
      '       ...]',
      '  output 2: R.shape([2, 3])',
      '  output 3: tuple of 1',
      '    output 3.0: bool[1]  [True]',
      '  compile 12.3 ms, run 1.5 ms',
    ].join('\n'),
  );
});

test('what the server answered for examples/vector_add.relax', () => {
  const answer = {
    compileMs: 63.546406,
    function: 'main',
    inputs: [
      { from: 'random (seed 0)', name: 'a' },
      { from: 'random (seed 0)', name: 'b' },
    ],
    outputs: [
      { dtype: 'float32', shape: [4], summary: '[0.865633, 0.91459, 0.621921, -0.384141]\nmin -0.384141, max 0.91459, mean 0.504501' },
    ],
    runMs: 4.397359,
  };
  assert.equal(
    formatRunResult(answer, 'vector_add.relax', { n: 4 }),
    [
      'relax.run main (vector_add.relax)',
      '  sizes: n = 4',
      '  inputs: a = random (seed 0), b = random (seed 0)',
      '  output: float32[4]',
      '      [0.865633, 0.91459, 0.621921, -0.384141]',
      '      min -0.384141, max 0.91459, mean 0.504501',
      '  compile 63.5 ms, run 4.4 ms',
    ].join('\n'),
  );
});

test('no outputs, missing times', () => {
  assert.equal(formatRunResult({ function: 'g', outputs: [] }), 'relax.run g\n  no outputs\n  compile ?, run ?');
  assert.equal(formatMs(undefined), '?');
  assert.equal(formatMs(150.4), '150 ms');
});

test('isRunResult', () => {
  assert.ok(isRunResult({ function: 'main', outputs: [] }));
  assert.ok(!isRunResult(null));
  assert.ok(!isRunResult({ text: 'x' }));
  assert.ok(!isRunResult({ function: 'main' }));
});
