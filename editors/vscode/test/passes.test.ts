import assert = require('node:assert/strict');
import { test } from 'node:test';

import { DEFAULT_PIPELINE, irChoices, parsePasses } from '../src/passes';
import { PASSES_OUTPUT } from './fixtures';


test('parses the registered passes and the pipeline', () => {
  const list = parsePasses(PASSES_OUTPUT);
  assert.equal(list.passes.length, 17);
  assert.deepEqual(list.passes.find((p) => p.name === 'LegalizeOps'), {
    name: 'LegalizeOps',
    optLevel: 0,
    doc: 'Replace calls of Relax ops with known shapes by call_tir of TIR PrimFuncs',
  });
  assert.equal(list.passes.find((p) => p.name === 'DefaultCPUSchedule')?.optLevel, 1);
  // A name longer than the column still parses.
  assert.equal(list.passes.find((p) => p.name === 'tir.InstrumentBoundCheckers')?.optLevel, 0);
  assert.equal(list.pipeline.length, 15);
  assert.deepEqual(list.pipeline.slice(0, 4).map((s) => `${s.name}/${s.optLevel}`), [
    'CanonicalizeBindings/1',
    'DeadCodeElimination/1',
    'LegalizeOps/0',
    'FoldConstant/1',
  ]);
  // Aliases are not passes.
  assert.ok(!list.passes.some((p) => p.name === 'VMBuiltinLower'));
});

test('the choices: whole pipeline, lowered TIR, then each pipeline pass once, in order', () => {
  const choices = irChoices(parsePasses(PASSES_OUTPUT));
  assert.deepEqual(
    choices.map((c) => c.label),
    ['Whole pipeline', 'Lowered TIR', 'CanonicalizeBindings', 'DeadCodeElimination', 'LegalizeOps', 'FoldConstant',
      'DefaultCPUSchedule', 'LambdaLift', 'ToNonDataflow', 'RemovePurityChecking', 'CallTIRRewrite', 'StaticPlanBlockMemory',
      'LowerAllocTensor', 'KillAfterLastUse', 'LowerRuntimeBuiltin', 'VMShapeLower'],
  );
  assert.deepEqual(choices[0].request, {});
  assert.deepEqual(choices[1].request, { tir: true });
  const legalize = choices.find((c) => c.label === 'LegalizeOps')!;
  assert.deepEqual(legalize.request, { pass: 'LegalizeOps' });
  assert.equal(legalize.detail, 'Replace calls of Relax ops with known shapes by call_tir of TIR PrimFuncs');
  assert.equal(legalize.title, 'after LegalizeOps');
  assert.match(choices.find((c) => c.label === 'DeadCodeElimination')!.description!, /runs 2 times/);
  assert.match(choices.find((c) => c.label === 'FoldConstant')!.description!, /opt level ≥ 1/);
  // AnnotateTIROpPattern is registered but not in the pipeline: it would show nothing.
  assert.ok(!choices.some((c) => c.label === 'AnnotateTIROpPattern'));
});

test('the constant pipeline is what relax passes prints', () => {
  assert.deepEqual(parsePasses(PASSES_OUTPUT).pipeline, DEFAULT_PIPELINE);
});

test('without relax passes, the constant pipeline', () => {
  for (const list of [undefined, parsePasses(''), parsePasses('garbage\n  more garbage\n')]) {
    const names = irChoices(list).slice(2).map((c) => c.label);
    assert.deepEqual(names, [...new Set(DEFAULT_PIPELINE.map((s) => s.name))]);
  }
});
