// The extension's settings and what the server is given of them. No `vscode` import: the
// caller passes a getter over `workspace.getConfiguration('relax')`.

/** What `relax lsp` reads from `initializationOptions` and `workspace/didChangeConfiguration`. */
export interface ServerSettings {
  format?: { lineWidth?: number; profile?: 'legacy' | 'current' };
  lint?: { select?: string[]; extendSelect?: string[]; ignore?: string[] };
}

export interface RelaxSettings {
  /** `relax.path` as written (not resolved). */
  path: string;
  /** `relax.server.logFile`: `relax lsp --log FILE`. */
  logFile?: string;
  /** `relax.format.lineWidth`; undefined: from relax.toml, else 100. */
  lineWidth?: number;
  /** `relax.format.profile`; undefined: from relax.toml, else none. */
  profile?: 'legacy' | 'current';
  /** `relax.lint.select` / `extendSelect` / `ignore`; empty: from the project configuration. */
  lintSelect: string[];
  lintExtendSelect: string[];
  lintIgnore: string[];
}

/** Reads one key under `relax.` (e.g. `format.lineWidth`); undefined when unset. */
export type SettingGetter = (key: string) => unknown;

export const DEFAULT_PATH = 'relax';

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Code selectors as `relax check --select` takes them: trimmed, upper-cased (as the command
 * line does), empty ones dropped, deduplicated.
 */
export function selectors(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    const s = nonEmptyString(item)?.toUpperCase();
    if (s !== undefined && !out.includes(s)) out.push(s);
  }
  return out;
}

export function readSettings(get: SettingGetter): RelaxSettings {
  const width = get('format.lineWidth');
  const profile = get('format.profile');
  return {
    path: nonEmptyString(get('path')) ?? DEFAULT_PATH,
    logFile: nonEmptyString(get('server.logFile')),
    lineWidth:
      typeof width === 'number' && Number.isInteger(width) && width > 0 ? width : undefined,
    profile: profile === 'legacy' || profile === 'current' ? profile : undefined,
    lintSelect: selectors(get('lint.select')),
    lintExtendSelect: selectors(get('lint.extendSelect')),
    lintIgnore: selectors(get('lint.ignore')),
  };
}

/** Only the keys the user set: an unset key means "from the project configuration". */
export function serverSettings(s: RelaxSettings): ServerSettings {
  const out: ServerSettings = {};
  if (s.lineWidth !== undefined || s.profile !== undefined) {
    out.format = {};
    if (s.lineWidth !== undefined) out.format.lineWidth = s.lineWidth;
    if (s.profile !== undefined) out.format.profile = s.profile;
  }
  if (s.lintSelect.length > 0 || s.lintExtendSelect.length > 0 || s.lintIgnore.length > 0) {
    out.lint = {};
    if (s.lintSelect.length > 0) out.lint.select = [...s.lintSelect];
    if (s.lintExtendSelect.length > 0) out.lint.extendSelect = [...s.lintExtendSelect];
    if (s.lintIgnore.length > 0) out.lint.ignore = [...s.lintIgnore];
  }
  return out;
}

/**
 * The object sent as `initializationOptions` and as the `settings` of
 * `workspace/didChangeConfiguration`: the wrapped form `{"relax": {...}}`.
 */
export function settingsPayload(s: RelaxSettings): { relax: ServerSettings } {
  return { relax: serverSettings(s) };
}

/** The arguments of the server process after the binary. */
export function serverArgs(s: RelaxSettings): string[] {
  return s.logFile !== undefined ? ['lsp', '--log', s.logFile] : ['lsp'];
}

/** Settings whose change needs a new server process (the others are sent to the running one). */
export const PROCESS_SETTINGS = ['relax.path', 'relax.server.logFile'];
/** Settings the running server is told about. */
export const SERVER_SETTINGS = ['relax.format', 'relax.lint'];
