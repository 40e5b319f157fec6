// The VS Code extension: starts `relax lsp` through vscode-languageclient after checking the
// binary, passes the settings on, and registers the commands.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

import { Client, EditorContext, Host, parseSize, RelaxCommands } from './commands';
import { IR_SCHEME, IRDocuments } from './irDocuments';
import { irChoices, IRChoice } from './passes';
import { listPasses, probeProblem, probeServer, resolveServerPath } from './server';
import {
  PROCESS_SETTINGS,
  readSettings,
  RelaxSettings,
  SERVER_SETTINGS,
  serverArgs,
  settingsPayload,
} from './settings';

const OPEN_SETTINGS = 'Open Settings';

export class RelaxExtension implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  readonly irDocuments = new IRDocuments();
  readonly commands: RelaxCommands;
  private client: LanguageClient | undefined;
  private command: string | undefined;
  private passChoices: Promise<IRChoice[]> | undefined;
  /** Serializes start, stop and restart. */
  private lifecycle: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.output = vscode.window.createOutputChannel('Relax');
    this.commands = new RelaxCommands(this.host());
    this.disposables.push(
      this.output,
      this.irDocuments,
      vscode.workspace.registerTextDocumentContentProvider(IR_SCHEME, this.irDocuments),
      vscode.workspace.onDidCloseTextDocument((d) => this.irDocuments.forget(d.uri)),
      vscode.commands.registerCommand('relax.runFunction', (fn?: unknown) => this.commands.runFunction(fn)),
      vscode.commands.registerCommand('relax.showIRAfterPass', (pass?: unknown) => this.commands.showIRAfterPass(pass)),
      vscode.commands.registerCommand('relax.restartServer', () => this.restart()),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
    );
  }

  settings(): RelaxSettings {
    const config = vscode.workspace.getConfiguration('relax');
    return readSettings((key) => config.get(key));
  }

  /** The running client (tests look at it). */
  get languageClient(): LanguageClient | undefined {
    return this.client;
  }

  start(): Promise<void> {
    return this.queue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.queue(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.queue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  private queue(step: () => Promise<void>): Promise<void> {
    this.lifecycle = this.lifecycle.then(step, step);
    return this.lifecycle;
  }

  private async doStart(): Promise<void> {
    const settings = this.settings();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const command = resolveServerPath(settings.path, folder);
    const probe = await probeServer(command);
    const problem = probeProblem(probe, settings.path);
    if (problem) {
      this.output.appendLine(problem);
      void vscode.window.showErrorMessage(problem, OPEN_SETTINGS).then((choice) => {
        if (choice === OPEN_SETTINGS) void vscode.commands.executeCommand('workbench.action.openSettings', 'relax.path');
      });
      return;
    }
    this.command = command;
    this.passChoices = undefined;
    const serverOptions: ServerOptions = {
      command,
      args: serverArgs(settings),
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'relax' },
        { scheme: 'untitled', language: 'relax' },
      ],
      initializationOptions: settingsPayload(settings),
      diagnosticCollectionName: 'relax',
      middleware: {
        executeCommand: (cmd, args, next) => this.commands.executeCommand(cmd, args, next),
      },
    };
    const client = new LanguageClient('relax', 'Relax Language Server', serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
      this.output.appendLine(`relax ${probe.kind === 'ok' ? probe.version : ''} language server started: ${command} ${serverArgs(settings).join(' ')}`);
    } catch (e) {
      this.client = undefined;
      const message = `Relax: the language server \`${command}\` did not start: ${e instanceof Error ? e.message : String(e)}`;
      this.output.appendLine(message);
      void vscode.window.showErrorMessage(message);
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (e) {
        this.output.appendLine(`Stopping the server: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (PROCESS_SETTINGS.some((s) => e.affectsConfiguration(s))) {
      void this.restart();
      return;
    }
    if (SERVER_SETTINGS.some((s) => e.affectsConfiguration(s))) {
      const client = this.client;
      if (client)
        void client
          .sendNotification('workspace/didChangeConfiguration', { settings: settingsPayload(this.settings()) })
          .catch(() => undefined);
    }
  }

  private host(): Host {
    return {
      client: (): Client | undefined => {
        const c = this.client;
        if (!c || !c.isRunning()) return undefined;
        return { sendRequest: (method, params, token) => c.sendRequest(method, params, token as vscode.CancellationToken) };
      },
      activeEditor: (): EditorContext | undefined => {
        const editor = vscode.window.activeTextEditor;
        if (!editor) return undefined;
        const uri = this.client ? this.client.code2ProtocolConverter.asUri(editor.document.uri) : editor.document.uri.toString();
        const p = editor.selection.active;
        return { uri, languageId: editor.document.languageId, position: { line: p.line, character: p.character } };
      },
      pick: async (items, placeholder) => vscode.window.showQuickPick(items, { placeHolder: placeholder, matchOnDescription: true }),
      withProgress: (title, task) =>
        Promise.resolve(
          vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => task(token)),
        ),
      showError: (message) => void vscode.window.showErrorMessage(message),
      print: (text) => {
        this.output.appendLine(text);
        this.output.show(true);
      },
      openIR: (doc) => this.irDocuments.show(doc),
      askSize: async (name, fn, previous) => {
        const answer = await vscode.window.showInputBox({
          title: `Relax: run ${fn}`,
          prompt: `The value of the symbolic size \`${name}\` for the random inputs`,
          value: previous !== undefined ? String(previous) : undefined,
          validateInput: (text) => (parseSize(text) === undefined ? 'a whole number, 0 or more' : undefined),
        });
        return answer === undefined ? undefined : parseSize(answer);
      },
      irChoices: () => {
        const command = this.command;
        if (!this.passChoices)
          this.passChoices = (command ? listPasses(command) : Promise.resolve(undefined)).then(irChoices);
        return this.passChoices;
      },
    };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

let extension: RelaxExtension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<RelaxExtension> {
  extension = new RelaxExtension();
  context.subscriptions.push(extension);
  await extension.start();
  return extension;
}

export async function deactivate(): Promise<void> {
  const e = extension;
  extension = undefined;
  if (e) {
    await e.stop();
    e.dispose();
  }
}
