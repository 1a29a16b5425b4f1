// Waiting for something a test cannot be told about directly (a server's record, a file that
// appears): checked every 10 ms, failing with what was awaited when the deadline passes.

export async function until(check: () => boolean | Promise<boolean>, what = 'a condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
