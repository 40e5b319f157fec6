// A stand-in for `vscode-languageclient/node`: a LanguageClient that records its options and
// answers requests from a table, never starting a process.

export enum TransportKind {
  stdio = 0,
  ipc = 1,
  pipe = 2,
  socket = 3,
}

export type Handler = (params: unknown) => unknown;

export class LanguageClient {
  static instances: LanguageClient[] = [];
  /** Answers by method (and by command for workspace/executeCommand: `workspace/executeCommand relax.run`). */
  static handlers = new Map<string, Handler>();

  running = false;
  stopped = false;
  readonly requests: { method: string; params: unknown }[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly code2ProtocolConverter = { asUri: (uri: { toString(): string }) => uri.toString() };

  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: { command: string; args: string[]; transport: TransportKind },
    readonly clientOptions: {
      documentSelector: unknown[];
      initializationOptions: unknown;
      middleware: { executeCommand?: (c: string, a: unknown[], next: (c: string, a: unknown[]) => unknown) => unknown };
    },
  ) {
    LanguageClient.instances.push(this);
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
  }

  isRunning(): boolean {
    return this.running;
  }

  async sendRequest(method: string, params: unknown): Promise<unknown> {
    this.requests.push({ method, params });
    const command = (params as { command?: string } | null)?.command;
    const handler =
      (command !== undefined ? LanguageClient.handlers.get(`${method} ${command}`) : undefined) ??
      LanguageClient.handlers.get(method);
    if (!handler) throw Object.assign(new Error(`Unhandled method ${method}`), { code: -32601 });
    return handler(params);
  }

  async sendNotification(method: string, params: unknown): Promise<void> {
    this.notifications.push({ method, params });
  }

  /** What vscode-languageclient's ExecuteCommandFeature does when a lens runs a server command. */
  invokeServerCommand(command: string, args: unknown[]): unknown {
    const next = (c: string, a: unknown[]) =>
      this.sendRequest('workspace/executeCommand', { command: c, arguments: a });
    const mw = this.clientOptions.middleware.executeCommand;
    return mw ? mw(command, args, next) : next(command, args);
  }
}
