/** The error a statement throws; the test fails when it does not throw. */
export async function failure(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error("the statement did not fail");
}
