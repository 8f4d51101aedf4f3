import type * as vscode from 'vscode';

/** Owns disposables and releases them once, newest first (the hexeditor pattern). */
export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposedValue = false;

  protected get isDisposed(): boolean {
    return this.disposedValue;
  }

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposedValue) disposable.dispose();
    else this.owned.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    while (this.owned.length > 0) {
      try {
        this.owned.pop()?.dispose();
      } catch {
        // One failing dispose must not keep the rest alive.
      }
    }
  }
}
