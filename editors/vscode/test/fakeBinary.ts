// Fake `relax` binaries (shell scripts) for the probe tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relax-vscode-test-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** A script that prints `versionOutput` for --version and `passesOutput` for `passes`. */
export function fakeRelax(name: string, versionOutput: string, passesOutput = '', exitCode = 0): string {
  const file = path.join(dir, name);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      'case "$1" in',
      `  --version) printf '%s\\n' ${quote(versionOutput)}; exit ${exitCode} ;;`,
      `  passes) printf '%s' ${quote(passesOutput)} ;;`,
      '  *) exit 2 ;;',
      'esac',
      '',
    ].join('\n'),
  );
  fs.chmodSync(file, 0o755);
  return file;
}

export function notExecutable(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'not a program\n');
  fs.chmodSync(file, 0o644);
  return file;
}

export const missing = path.join(dir, 'no-such-relax');
