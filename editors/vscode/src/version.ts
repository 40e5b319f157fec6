// `relax --version` prints `relax 0.1.0`: parsing it and comparing with the oldest server this
// extension works with.

/** The oldest `relax` whose server this extension works with (code lenses, relax.run/showIR). */
export const MIN_SERVER_VERSION = '0.1.0';

export type Version = [number, number, number];

/** The version in `relax --version`'s output (`relax 0.1.0`, `relax v0.2.0-dev`), or undefined. */
export function parseVersion(output: string): Version | undefined {
  const m = /^\s*relax\s+v?(\d+)\.(\d+)(?:\.(\d+))?/m.exec(output);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? '0')];
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; ++i) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

export function formatVersion(v: Version): string {
  return v.join('.');
}

export type VersionCheck =
  | { ok: true; version: string }
  | { ok: false; reason: 'unrecognized'; output: string }
  | { ok: false; reason: 'too-old'; version: string; minimum: string };

export function checkVersion(output: string, minimum: string = MIN_SERVER_VERSION): VersionCheck {
  const v = parseVersion(output);
  if (!v) return { ok: false, reason: 'unrecognized', output: output.trim() };
  const min = parseVersion(`relax ${minimum}`);
  if (!min) throw new Error(`bad minimum version ${minimum}`);
  if (compareVersions(v, min) < 0)
    return { ok: false, reason: 'too-old', version: formatVersion(v), minimum };
  return { ok: true, version: formatVersion(v) };
}
