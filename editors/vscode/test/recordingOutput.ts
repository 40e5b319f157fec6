// What the commands show the user, as both test hosts (the fake and the real server's) record it.
import { IRDocument } from '../src/commands';

export class RecordingOutput {
  errors: string[] = [];
  printed: string[] = [];
  opened: IRDocument[] = [];
  showError(message: string) {
    this.errors.push(message);
  }
  print(text: string) {
    this.printed.push(text);
  }
  async openIR(doc: IRDocument) {
    this.opened.push(doc);
  }
}
