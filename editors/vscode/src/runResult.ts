// The answer of `relax.run` and the text the "Relax" output channel shows for it.

export interface RunOutput {
  shape?: number[];
  dtype?: string;
  summary?: string;
  /** A nested tuple (the server flattens tuples, but a field may still be one). */
  tuple?: RunOutput[];
  /** A value that is not a tensor (a shape, a string...). */
  value?: string;
}

export interface RunInput {
  name: string;
  from: string;
}

export interface RunResult {
  function: string;
  inputs?: RunInput[];
  outputs: RunOutput[];
  compileMs?: number;
  runMs?: number;
}

export function isRunResult(value: unknown): value is RunResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.function === 'string' && Array.isArray(v.outputs);
}

/** `1234.5 ms`, `12.3 ms`, `0.042 ms` */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '?';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** `float32[2, 3]`, `float32[]` (a scalar) */
export function formatType(o: RunOutput): string {
  const dtype = o.dtype ?? '?';
  return `${dtype}[${(o.shape ?? []).join(', ')}]`;
}

function indent(text: string, by: string): string {
  return text
    .replace(/\s+$/, '')
    .split(/\r?\n/)
    .map((l) => (l === '' ? l : by + l))
    .join('\n');
}

function formatOutput(o: RunOutput, label: string, pad: string): string[] {
  if (o.tuple) {
    const lines = [`${pad}${label}: tuple of ${o.tuple.length}`];
    o.tuple.forEach((f, i) => lines.push(...formatOutput(f, `${label}.${i}`, pad + '  ')));
    return lines;
  }
  if (o.value !== undefined && o.dtype === undefined) return [`${pad}${label}: ${o.value}`];
  const head = `${pad}${label}: ${formatType(o)}`;
  const summary = (o.summary ?? '').replace(/\s+$/, '');
  if (summary === '') return [head];
  if (!summary.includes('\n')) return [`${head}  ${summary}`];
  return [head, indent(summary, pad + '    ')];
}

/**
 * The lines for one run:
 *
 *     relax.run main (mlp.relax)
 *       inputs: x = random (seed 0), w1 = random (seed 0)
 *       output 0: float32[1, 10]  [0.1, ...]
 *       compile 812 ms, run 0.412 ms
 */
export function formatRunResult(
  result: RunResult,
  documentName?: string,
  sizes?: Record<string, number>,
): string {
  const lines = [`relax.run ${result.function}${documentName ? ` (${documentName})` : ''}`];
  const given = Object.entries(sizes ?? {});
  if (given.length > 0) lines.push(`  sizes: ${given.map(([k, v]) => `${k} = ${v}`).join(', ')}`);
  if (result.inputs && result.inputs.length > 0)
    lines.push(`  inputs: ${result.inputs.map((i) => `${i.name} = ${i.from}`).join(', ')}`);
  if (result.outputs.length === 0) lines.push('  no outputs');
  result.outputs.forEach((o, i) =>
    lines.push(...formatOutput(o, result.outputs.length === 1 ? 'output' : `output ${i}`, '  ')),
  );
  lines.push(`  compile ${formatMs(result.compileMs)}, run ${formatMs(result.runMs)}`);
  return lines.join('\n');
}
