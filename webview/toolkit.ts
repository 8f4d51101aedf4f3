// The only module that touches @vscode/webview-ui-toolkit. The toolkit is
// deprecated upstream; swapping it for another component set must touch
// this file alone.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeTextField } from '@vscode/webview-ui-toolkit';

let registered = false;

export function registerComponents(): void {
  if (registered) return;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeTextField());
  registered = true;
}
