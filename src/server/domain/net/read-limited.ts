/**
 * Reads a web stream up to `maxBytes`. Returns the bytes read and whether the stream had
 * more (then it is cancelled): callers decide whether that is an error (a request body over
 * the limit) or just the part they need (the head of a web page).
 */
export async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), truncated: false };
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      chunks.push(value.subarray(0, value.byteLength - (size - maxBytes)));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(value);
  }
}

/**
 * Reads a request's body up to `maxBytes` ({@link readLimited}; none: empty). `cut`: the client hung up before
 * it sent all of it (Node fails the stream with `aborted`, code ECONNRESET), which is the client's
 * doing, not a fault to log as an error; any other read failure is thrown.
 */
export async function readRequestBody(req: Request, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean; cut: boolean }> {
  if (!req.body) return { bytes: Buffer.alloc(0), truncated: false, cut: false };
  try {
    return { ...(await readLimited(req.body, maxBytes)), cut: false };
  } catch (err) {
    if (req.signal.aborted || (err as NodeJS.ErrnoException | null)?.code === 'ECONNRESET') return { bytes: Buffer.alloc(0), truncated: false, cut: true };
    throw err;
  }
}
