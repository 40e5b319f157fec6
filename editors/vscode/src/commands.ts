// The command handlers: "Relax: Run function", "Relax: Show IR after pass…", and the server
// commands `relax.run` / `relax.showIR` when a code lens invokes them. They talk to VS Code and
// to the language client through `Host`, so that they run under test without either.
import { functionAt, runnableFunctions, CodeLens, DocumentSymbol } from './functions';
import { IRChoice } from './passes';
import { formatRunResult, isRunResult, RunResult } from './runResult';

export const RUN = 'relax.run';
export const SHOW_IR = 'relax.showIR';

/** The argument of `relax.run` (docs/lsp.md). */
export interface RunArgs {
  uri: string;
  function?: string;
  inputs?: string[];
  sizes?: Record<string, number>;
  seed?: number;
}

/** The argument of `relax.showIR`. */
export interface ShowIRArgs {
  uri: string;
  pass?: string;
  tir?: boolean;
}

export interface ShowIRResult {
  text: string;
  language?: string;
}

/** The part of the language client the handlers use; requests reject with `{code, message}`. */
export interface Client {
  sendRequest(method: string, params: unknown, token?: unknown): Promise<unknown>;
}

export interface EditorContext {
  /** The document's URI as the client sent it to the server. */
  uri: string;
  languageId: string;
  position: { line: number; character: number };
}

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

export interface IRDocument {
  sourceUri: string;
  /** `mlp (after LegalizeOps)` */
  title: string;
  text: string;
  language: string;
}

export interface Host {
  /** The running client, or undefined when the server is not running. */
  client(): Client | undefined;
  activeEditor(): EditorContext | undefined;
  pick<T extends PickItem>(items: T[], placeholder: string): Promise<T | undefined>;
  /** Runs the task under a cancellable progress notification; the token goes to sendRequest. */
  withProgress<R>(title: string, task: (token: unknown) => Promise<R>): Promise<R>;
  showError(message: string): void;
  /** Appends to the "Relax" output channel and reveals it (without taking the focus). */
  print(text: string): void;
  openIR(doc: IRDocument): Promise<void>;
  irChoices(): Promise<IRChoice[]>;
  /**
   * Asks for the value of a symbolic size (`n`) that random inputs need; `previous` is the value
   * given last time. Undefined when dismissed.
   */
  askSize(name: string, fn: string, previous?: number): Promise<number | undefined>;
}

/** JSON-RPC error codes the handlers tell apart. */
export const REQUEST_CANCELLED = -32800;
export const REQUEST_FAILED = -32803;
export const CONTENT_MODIFIED = -32801;

export function errorCode(e: unknown): number | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The `data` of a server error: `{"kind": "missingSizes", "sizes": [...]}`, `{"kind": "buildFailed"}`. */
function errorData(e: unknown): { kind?: unknown; sizes?: unknown } | undefined {
  const data = (e as { data?: unknown } | null)?.data;
  return data !== null && typeof data === 'object' ? (data as { kind?: unknown; sizes?: unknown }) : undefined;
}

/**
 * The symbolic size a run with random inputs lacks: the first of the error's `data.sizes`
 * (`kind: "missingSizes"`), or from the message of a server that sends no data
 * ("... give the size of `n` ...").
 */
export function missingSize(e: unknown): string | undefined {
  if (errorCode(e) !== REQUEST_FAILED) return undefined;
  const data = errorData(e);
  if (data?.kind === 'missingSizes' && Array.isArray(data.sizes) && typeof data.sizes[0] === 'string')
    return data.sizes[0];
  return /(?:give )?the size of `([^`]+)`/.exec(errorMessage(e))?.[1];
}

/** A size as typed in the input box: a whole number. */
export function parseSize(text: string): number | undefined {
  const t = text.trim();
  return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : undefined;
}

/** Whether a failure is a build's, whose errors the server publishes as diagnostics. */
export function isBuildFailure(e: unknown): boolean {
  if (errorCode(e) !== REQUEST_FAILED) return false;
  const kind = errorData(e)?.kind;
  if (kind !== undefined) return kind === 'buildFailed';
  return /\b(errors?|build|building|lowering)\b/.test(errorMessage(e));
}

export function errorMessage(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' && m !== '' ? m : String(e);
}

/** The last path segment of a URI, decoded: `file:///a/mlp.relax` -> `mlp.relax`. */
export function uriBasename(uri: string): string {
  const p = uri.replace(/[?#].*$/, '');
  const last = p.slice(p.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function stem(name: string): string {
  return name.replace(/\.relax$/, '');
}

export function irTitle(args: ShowIRArgs): string {
  if (args.tir) return 'lowered TIR';
  if (args.pass) return `after ${args.pass}`;
  return 'after the pipeline';
}

export const NOT_RUNNING =
  'Relax: the language server is not running. Check relax.path, then run "Relax: Restart server".';

/** How many sizes one run may ask for before giving up. */
const MAX_SIZE_QUESTIONS = 16;

export class RelaxCommands {
  /** The sizes given last, by name, offered again when a run asks. */
  private readonly lastSizes = new Map<string, number>();

  constructor(private readonly host: Host) {}

  /**
   * `middleware.executeCommand` of the language client: the commands the server advertises
   * (`relax.run`, `relax.showIR`, on the code lenses) come here, so their answers are shown
   * instead of dropped; other commands go on to the server unchanged.
   */
  executeCommand(command: string, args: unknown[], next: (command: string, args: unknown[]) => unknown): unknown {
    const arg = args[0];
    if (command === RUN && isObjectWithUri(arg)) return this.run(arg as RunArgs);
    if (command === SHOW_IR && isObjectWithUri(arg)) return this.showIR(arg as ShowIRArgs);
    return next(command, args);
  }

  private clientOrComplain(): Client | undefined {
    const client = this.host.client();
    if (!client) this.host.showError(NOT_RUNNING);
    return client;
  }

  private relaxEditor(): EditorContext | undefined {
    const editor = this.host.activeEditor();
    if (!editor || editor.languageId !== 'relax') {
      this.host.showError('Relax: open a .relax file first.');
      return undefined;
    }
    return editor;
  }

  private failed(what: string, e: unknown): void {
    const code = errorCode(e);
    if (code === REQUEST_CANCELLED) {
      this.host.print(`${what}: cancelled`);
      return;
    }
    let message = `${what} failed: ${errorMessage(e)}`;
    if (isBuildFailure(e)) message += ' (the errors are in the Problems panel)';
    else if (code === CONTENT_MODIFIED) message += ' (the document changed meanwhile; try again)';
    this.host.print(message);
    this.host.showError(`Relax: ${message}`);
  }

  /**
   * `relax.run`: runs the function on the VM and prints what it returned. When random inputs
   * need the value of a symbolic size the server names, asks for it and runs again.
   */
  async run(args: RunArgs): Promise<RunResult | undefined> {
    const client = this.clientOrComplain();
    if (!client) return undefined;
    const fn = args.function ?? 'main';
    const what = `Running \`${fn}\``;
    let request: RunArgs = { ...args, function: fn };
    for (let asked = 0; ; ++asked) {
      try {
        const params = { command: RUN, arguments: [request] };
        const result = await this.host.withProgress(`Relax: running ${fn}…`, (token) =>
          client.sendRequest('workspace/executeCommand', params, token),
        );
        if (!isRunResult(result)) {
          this.failed(what, new Error('the server answered no result'));
          return undefined;
        }
        this.host.print(formatRunResult(result, uriBasename(args.uri), request.sizes));
        return result;
      } catch (e) {
        const size = missingSize(e);
        if (size === undefined || request.sizes?.[size] !== undefined || asked >= MAX_SIZE_QUESTIONS) {
          this.failed(what, e);
          return undefined;
        }
        const value = await this.host.askSize(size, fn, this.lastSizes.get(size));
        if (value === undefined) {
          this.host.print(`${what}: cancelled (no value for the size \`${size}\`)`);
          return undefined;
        }
        this.lastSizes.set(size, value);
        request = { ...request, sizes: { ...request.sizes, [size]: value } };
      }
    }
  }

  /** `relax.showIR`: the module after a pass (or the pipeline, or the TIR) in a read-only editor. */
  async showIR(args: ShowIRArgs): Promise<ShowIRResult | undefined> {
    const client = this.clientOrComplain();
    if (!client) return undefined;
    const request: ShowIRArgs = { uri: args.uri };
    if (args.pass) request.pass = args.pass;
    if (args.tir) request.tir = true;
    const title = irTitle(request);
    try {
      const result = (await this.host.withProgress(`Relax: building (${title})…`, (token) =>
        client.sendRequest('workspace/executeCommand', { command: SHOW_IR, arguments: [request] }, token),
      )) as ShowIRResult | null;
      if (!result || typeof result.text !== 'string') {
        this.failed(`Showing the IR ${title}`, new Error('the server answered no text'));
        return undefined;
      }
      await this.host.openIR({
        sourceUri: args.uri,
        title: `${stem(uriBasename(args.uri))} (${title})`,
        text: result.text,
        language: result.language || 'relax',
      });
      return result;
    } catch (e) {
      this.failed(`Showing the IR ${title}`, e);
      return undefined;
    }
  }

  /**
   * "Relax: Run function": the Relax function under the cursor, else the only one, else the
   * one picked from the module's functions.
   */
  async runFunction(functionName?: unknown): Promise<RunResult | undefined> {
    const editor = this.relaxEditor();
    if (!editor) return undefined;
    const client = this.clientOrComplain();
    if (!client) return undefined;
    if (typeof functionName === 'string' && functionName !== '')
      return this.run({ uri: editor.uri, function: functionName });
    const textDocument = { uri: editor.uri };
    let symbols: DocumentSymbol[] | null;
    let lenses: CodeLens[] | null | undefined;
    try {
      symbols = (await client.sendRequest('textDocument/documentSymbol', { textDocument })) as DocumentSymbol[] | null;
    } catch (e) {
      this.failed('Listing the functions', e);
      return undefined;
    }
    try {
      lenses = (await client.sendRequest('textDocument/codeLens', { textDocument })) as CodeLens[] | null;
    } catch {
      lenses = undefined; // every function of the outline, then
    }
    const functions = runnableFunctions(symbols, lenses);
    if (functions.length === 0) {
      this.host.showError('Relax: the module has no Relax function to run (does it parse? see the Problems panel).');
      return undefined;
    }
    let chosen = functionAt(functions, editor.position);
    if (!chosen && functions.length === 1) chosen = functions[0];
    if (!chosen) {
      const picked = await this.host.pick(
        functions.map((f) => ({ label: f.name, description: `line ${f.selectionRange.start.line + 1}`, fn: f })),
        'The function to run (random inputs)',
      );
      if (!picked) return undefined;
      chosen = picked.fn;
    }
    return this.run({ uri: editor.uri, function: chosen.name });
  }

  /** "Relax: Show IR after pass…": picks the pass, then `relax.showIR`. */
  async showIRAfterPass(pass?: unknown): Promise<ShowIRResult | undefined> {
    const editor = this.relaxEditor();
    if (!editor) return undefined;
    if (!this.clientOrComplain()) return undefined;
    if (typeof pass === 'string' && pass !== '') return this.showIR({ uri: editor.uri, pass });
    const choice = await this.host.pick(await this.host.irChoices(), 'Show the module after…');
    if (!choice) return undefined;
    return this.showIR({ uri: editor.uri, ...choice.request });
  }
}

function isObjectWithUri(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { uri?: unknown }).uri === 'string';
}
