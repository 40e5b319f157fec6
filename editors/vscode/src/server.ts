// Finding and checking the `relax` binary before the language client starts it. Node only, no
// `vscode` import.
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

import { parsePasses, PassList } from './passes';
import { checkVersion, MIN_SERVER_VERSION } from './version';

/** How to get a binary, for the error messages. */
export const BUILD_HINT =
  'Build it with `scripts/demo.sh` (or `cmake --preset release && cmake --build --preset release --target relax`) ' +
  'in the relax repository, then set `relax.path` to build/release/cli/relax or put that folder on PATH.';

/**
 * The command to start: `~` and `${workspaceFolder}` expanded; a relative path with a slash
 * taken from the workspace folder; a bare name (`relax`) left for the PATH search.
 */
export function resolveServerPath(
  setting: string,
  workspaceFolder: string | undefined,
  home: string = os.homedir(),
): string {
  let p = setting.trim();
  if (workspaceFolder !== undefined) p = p.split('${workspaceFolder}').join(workspaceFolder);
  if (p === '~') p = home;
  else if (p.startsWith('~/') || p.startsWith('~\\')) p = path.join(home, p.slice(2));
  const bare = !p.includes('/') && !p.includes('\\');
  if (!bare && !path.isAbsolute(p) && workspaceFolder !== undefined) p = path.resolve(workspaceFolder, p);
  return p;
}

export type Probe =
  | { kind: 'ok'; command: string; version: string }
  | { kind: 'missing'; command: string }
  | { kind: 'too-old'; command: string; version: string; minimum: string }
  | { kind: 'unrecognized'; command: string; output: string }
  | { kind: 'failed'; command: string; message: string };

interface ExecResult {
  stdout: string;
  stderr: string;
  error?: { code?: string | number | null; message: string; killed?: boolean };
}

function run(command: string, args: string[], timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    try {
      execFile(
        command,
        args,
        { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
        (error, stdout, stderr) =>
          resolve({ stdout: String(stdout), stderr: String(stderr), error: error ?? undefined }),
      );
    } catch (e) {
      resolve({ stdout: '', stderr: '', error: e as { code?: string; message: string } });
    }
  });
}

/** Runs `COMMAND --version` and says whether it is a relax this extension can use. */
export async function probeServer(
  command: string,
  minimum: string = MIN_SERVER_VERSION,
  timeoutMs = 10000,
): Promise<Probe> {
  const r = await run(command, ['--version'], timeoutMs);
  if (r.error) {
    const code = r.error.code;
    if (code === 'ENOENT') return { kind: 'missing', command };
    if (code === 'EACCES') return { kind: 'failed', command, message: 'it is not executable' };
    if (r.error.killed) return { kind: 'failed', command, message: `\`--version\` did not answer in ${timeoutMs / 1000} s` };
    const detail = (r.stderr || r.stdout).trim().split('\n')[0];
    return { kind: 'failed', command, message: `\`--version\` failed (${detail || r.error.message})` };
  }
  const check = checkVersion(r.stdout + '\n' + r.stderr, minimum);
  if (check.ok) return { kind: 'ok', command, version: check.version };
  if (check.reason === 'too-old')
    return { kind: 'too-old', command, version: check.version, minimum: check.minimum };
  return { kind: 'unrecognized', command, output: check.output };
}

/** The error message for a probe that failed, with the fix; undefined when it is fine. */
export function probeProblem(probe: Probe, setting: string): string | undefined {
  const where = setting === probe.command ? `\`${setting}\`` : `\`${probe.command}\` (relax.path: \`${setting}\`)`;
  switch (probe.kind) {
    case 'ok':
      return undefined;
    case 'missing':
      return (
        `Relax: the language server ${where} was not found` +
        (setting.includes('/') || setting.includes('\\') ? '. ' : ' on PATH. ') +
        BUILD_HINT
      );
    case 'too-old':
      return (
        `Relax: ${where} is version ${probe.version}; this extension needs relax ${probe.minimum} or newer. ` +
        'Rebuild it from the current sources, or set `relax.path` to a newer binary.'
      );
    case 'unrecognized':
      return (
        `Relax: ${where} does not look like the relax toolkit (\`--version\` printed ` +
        `"${probe.output.split('\n')[0].slice(0, 80)}"). Set \`relax.path\` to the relax binary. ` +
        BUILD_HINT
      );
    case 'failed':
      return `Relax: ${where} cannot be used: ${probe.message}. Set \`relax.path\` to a working relax binary. ${BUILD_HINT}`;
  }
}

/** `relax passes`, parsed; undefined when it fails or lists nothing. */
export async function listPasses(command: string, timeoutMs = 10000): Promise<PassList | undefined> {
  const r = await run(command, ['passes'], timeoutMs);
  if (r.error) return undefined;
  const list = parsePasses(r.stdout);
  return list.pipeline.length > 0 ? list : undefined;
}
