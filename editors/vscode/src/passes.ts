// The passes `relax.showIR` can stop after: parsed from `relax passes`, or a constant list of
// the default CPU pipeline when that cannot run.

export interface RegisteredPass {
  name: string;
  optLevel: number;
  doc: string;
}

export interface PipelineStep {
  name: string;
  /** The opt level it needs (0: always runs). */
  optLevel: number;
}

export interface PassList {
  passes: RegisteredPass[];
  /** The default pipeline in order, as `relax build` runs it (a pass may appear twice). */
  pipeline: PipelineStep[];
}

/**
 * The default pipeline for the host CPU, as `relax passes` printed it when this extension was
 * written (compiler/pipeline.cc); used when `relax passes` fails.
 */
export const DEFAULT_PIPELINE: readonly PipelineStep[] = [
  { name: 'CanonicalizeBindings', optLevel: 1 },
  { name: 'DeadCodeElimination', optLevel: 1 },
  { name: 'LegalizeOps', optLevel: 0 },
  { name: 'FoldConstant', optLevel: 1 },
  { name: 'DeadCodeElimination', optLevel: 1 },
  { name: 'DefaultCPUSchedule', optLevel: 1 },
  { name: 'LambdaLift', optLevel: 0 },
  { name: 'ToNonDataflow', optLevel: 0 },
  { name: 'RemovePurityChecking', optLevel: 0 },
  { name: 'CallTIRRewrite', optLevel: 0 },
  { name: 'StaticPlanBlockMemory', optLevel: 0 },
  { name: 'LowerAllocTensor', optLevel: 0 },
  { name: 'KillAfterLastUse', optLevel: 0 },
  { name: 'LowerRuntimeBuiltin', optLevel: 0 },
  { name: 'VMShapeLower', optLevel: 0 },
];

/**
 * Parses `relax passes`:
 *
 *     Passes (name, opt level, what it does):
 *       LegalizeOps              O0  Lower ops to ...
 *
 *     TVM's names, accepted for ours (...):
 *       VMBuiltinLower           = LowerRuntimeBuiltin
 *
 *     Default pipeline for llvm -mtriple=... (relax build):
 *       1. CanonicalizeBindings (opt level >= 1)
 *       2. LegalizeOps
 *       then VM codegen and ...
 */
export function parsePasses(output: string): PassList {
  const passes: RegisteredPass[] = [];
  const pipeline: PipelineStep[] = [];
  let section: 'none' | 'passes' | 'aliases' | 'pipeline' = 'none';
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      if (/^Passes\b/.test(line)) section = 'passes';
      else if (/^Default pipeline\b/.test(line)) section = 'pipeline';
      else section = 'aliases';
      continue;
    }
    if (section === 'passes') {
      const m = /^\s+(\S+)\s+O(\d+)(?:\s+(.*))?$/.exec(line);
      if (m) passes.push({ name: m[1], optLevel: Number(m[2]), doc: (m[3] ?? '').trim() });
    } else if (section === 'pipeline') {
      const m = /^\s+\d+\.\s+(\S+)(?:\s+\(opt level >= (\d+)\))?/.exec(line);
      if (m) pipeline.push({ name: m[1], optLevel: m[2] ? Number(m[2]) : 0 });
    }
  }
  return { passes, pipeline };
}

/** What `relax.showIR` is asked for, with the words the quick pick shows. */
export interface IRChoice {
  label: string;
  description?: string;
  detail?: string;
  /** The argument of `relax.showIR` besides `uri`. */
  request: { pass?: string; tir?: boolean };
  /** Names the IR document: `after LegalizeOps`, `after the pipeline`, `lowered TIR`. */
  title: string;
}

export const WHOLE_PIPELINE: IRChoice = {
  label: 'Whole pipeline',
  description: 'the module relax build hands to VM codegen',
  request: {},
  title: 'after the pipeline',
};

export const LOWERED_TIR: IRChoice = {
  label: 'Lowered TIR',
  description: 'the kernels after TIR lowering',
  request: { tir: true },
  title: 'lowered TIR',
};

/**
 * The quick pick's choices: the whole pipeline, the lowered TIR, then each pass of the default
 * pipeline once, in pipeline order (a pass outside the pipeline would print nothing).
 */
export function irChoices(list: PassList | undefined): IRChoice[] {
  const steps = list && list.pipeline.length > 0 ? list.pipeline : DEFAULT_PIPELINE;
  const docs = new Map((list?.passes ?? []).map((p) => [p.name, p.doc]));
  const out: IRChoice[] = [WHOLE_PIPELINE, LOWERED_TIR];
  const seen = new Set<string>();
  steps.forEach((step, i) => {
    if (seen.has(step.name)) return;
    seen.add(step.name);
    const repeats = steps.filter((s) => s.name === step.name).length;
    let description = `step ${i + 1}`;
    if (repeats > 1) description += ` (runs ${repeats} times; shown after each)`;
    if (step.optLevel > 0) description += `, opt level ≥ ${step.optLevel}`;
    out.push({
      label: step.name,
      description,
      detail: docs.get(step.name) || undefined,
      request: { pass: step.name },
      title: `after ${step.name}`,
    });
  });
  return out;
}
