// Read-only documents for `relax.showIR`'s text: a TextDocumentContentProvider under the
// `relax-ir` scheme. A document's URI names the source and what was shown, so showing the same
// thing again refreshes its editor instead of opening another.
import * as vscode from 'vscode';

import { IRDocument } from './commands';

export const IR_SCHEME = 'relax-ir';

export class IRDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# This IR is gone; show it again from the source file.\n';
  }

  /** `relax-ir:/mlp (after LegalizeOps).relax?<source uri>` */
  uriFor(doc: IRDocument): vscode.Uri {
    return vscode.Uri.from({ scheme: IR_SCHEME, path: `/${doc.title}.relax`, query: doc.sourceUri });
  }

  async show(doc: IRDocument): Promise<void> {
    const uri = this.uriFor(doc);
    const key = uri.toString();
    const known = this.texts.has(key);
    this.texts.set(key, doc.text);
    if (known) this.changed.fire(uri);
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== doc.language)
      document = await vscode.languages.setTextDocumentLanguage(document, doc.language);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  /** Drops the text of a closed IR document. */
  forget(uri: vscode.Uri): void {
    if (uri.scheme === IR_SCHEME) this.texts.delete(uri.toString());
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}
