// A stand-in for the `vscode` module, with just what the extension uses, recording calls so
// tests can look at them. install.ts makes `require('vscode')` return it.

export interface Recorded {
  errors: { message: string; items: string[] }[];
  executed: { command: string; args: unknown[] }[];
  quickPicks: { items: unknown[]; options: unknown }[];
  shownDocuments: { document: TextDocument; options: unknown }[];
  progress: { title: string }[];
  output: Map<string, string[]>;
}

export const recorded: Recorded = {
  errors: [],
  executed: [],
  quickPicks: [],
  shownDocuments: [],
  progress: [],
  output: new Map(),
};

/** What the next showQuickPick / showErrorMessage answers. */
export const answers: { quickPick?: (items: unknown[]) => unknown; errorChoice?: string; inputBox?: string[] } = {};

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (listener: (e: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static from(c: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(c.scheme, c.path ?? '', c.query ?? '');
  }
  static file(p: string): Uri {
    return new Uri('file', p, '');
  }
  static parse(s: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/)?([^?#]*)(?:\?([^#]*))?/i.exec(s);
    if (!m) throw new Error(`bad uri ${s}`);
    return new Uri(m[1], decodeURIComponent(m[2]), m[3] ? decodeURIComponent(m[3]) : '');
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    const path = encodeURI(this.path);
    const authority = this.scheme === 'file' ? '//' : '';
    return `${this.scheme}:${authority}${path}${this.query ? '?' + encodeURIComponent(this.query) : ''}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export interface TextDocument {
  uri: Uri;
  languageId: string;
  getText(): string;
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export class CancellationTokenSource {
  token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable() };
}

// ---------------------------------------------------------------------------- configuration

/** The user's settings under `relax.`, by key (`format.lineWidth`). */
export const settings = new Map<string, unknown>();
const configListeners = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();

export function changeSettings(values: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) settings.delete(k);
    else settings.set(k, v);
  }
  const keys = Object.keys(values).map((k) => `relax.${k}`);
  configListeners.fire({
    affectsConfiguration: (section: string) =>
      keys.some((k) => k === section || k.startsWith(section + '.') || section.startsWith(k + '.')),
  });
}

// ---------------------------------------------------------------------------- namespaces

const commandTable = new Map<string, (...args: unknown[]) => unknown>();
const contentProviders = new Map<string, { provideTextDocumentContent(uri: Uri): string }>();
const closeListeners = new EventEmitter<TextDocument>();

export const commands = {
  registerCommand(id: string, fn: (...args: unknown[]) => unknown): Disposable {
    if (commandTable.has(id)) throw new Error(`command '${id}' already exists`);
    commandTable.set(id, fn);
    return new Disposable(() => commandTable.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    recorded.executed.push({ command: id, args });
    const fn = commandTable.get(id);
    return fn ? fn(...args) : undefined;
  },
  registered(): string[] {
    return [...commandTable.keys()];
  },
};

class OutputChannel {
  constructor(readonly name: string) {
    recorded.output.set(name, []);
  }
  appendLine(s: string): void {
    recorded.output.get(this.name)!.push(s);
  }
  append(s: string): void {
    recorded.output.get(this.name)!.push(s);
  }
  show(): void {}
  clear(): void {}
  dispose(): void {}
}

export const window = {
  activeTextEditor: undefined as
    | { document: TextDocument; selection: { active: Position } }
    | undefined,
  createOutputChannel(name: string): OutputChannel {
    return new OutputChannel(name);
  },
  async showErrorMessage(message: string, ...items: string[]): Promise<string | undefined> {
    recorded.errors.push({ message, items });
    return answers.errorChoice;
  },
  async showInformationMessage(): Promise<undefined> {
    return undefined;
  },
  async showQuickPick(items: unknown[], options: unknown): Promise<unknown> {
    recorded.quickPicks.push({ items, options });
    return answers.quickPick ? answers.quickPick(items) : undefined;
  },
  async withProgress<R>(
    options: { title: string },
    task: (progress: unknown, token: unknown) => Promise<R>,
  ): Promise<R> {
    recorded.progress.push({ title: options.title });
    return task({ report() {} }, new CancellationTokenSource().token);
  },
  async showInputBox(options: { validateInput?: (s: string) => string | undefined }): Promise<string | undefined> {
    const answer = answers.inputBox?.shift();
    if (answer !== undefined && options.validateInput?.(answer)) throw new Error(`input box refuses ${answer}`);
    return answer;
  },
  async showTextDocument(document: TextDocument, options: unknown): Promise<unknown> {
    recorded.shownDocuments.push({ document, options });
    return {};
  },
};

export const workspace = {
  workspaceFolders: undefined as { uri: Uri }[] | undefined,
  getConfiguration(section: string) {
    if (section !== 'relax') throw new Error(`unexpected section ${section}`);
    return { get: (key: string) => settings.get(key) };
  },
  onDidChangeConfiguration: configListeners.event,
  onDidCloseTextDocument: closeListeners.event,
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }): Disposable {
    contentProviders.set(scheme, provider);
    return new Disposable(() => contentProviders.delete(scheme));
  },
  async openTextDocument(uri: Uri): Promise<TextDocument> {
    const provider = contentProviders.get(uri.scheme);
    if (!provider) throw new Error(`no content provider for ${uri.scheme}`);
    const text = provider.provideTextDocumentContent(uri);
    return { uri, languageId: uri.path.endsWith('.relax') ? 'relax' : 'plaintext', getText: () => text };
  },
};

export const languages = {
  async setTextDocumentLanguage(document: TextDocument, languageId: string): Promise<TextDocument> {
    return { ...document, languageId };
  },
};

export function reset(): void {
  recorded.errors.length = 0;
  recorded.executed.length = 0;
  recorded.quickPicks.length = 0;
  recorded.shownDocuments.length = 0;
  recorded.progress.length = 0;
  recorded.output.clear();
  settings.clear();
  answers.quickPick = undefined;
  answers.errorChoice = undefined;
  answers.inputBox = undefined;
  window.activeTextEditor = undefined;
  workspace.workspaceFolders = undefined;
}
