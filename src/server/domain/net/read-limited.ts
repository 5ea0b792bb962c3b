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
 * Whether a failure to read a request's body is the client hanging up before it sent all of it
 * (Node fails the stream with `aborted`, code ECONNRESET): the client's doing, not a fault to log
 * as an error.
 */
export function clientHungUp(err: unknown, req: Request): boolean {
  return req.signal.aborted || (err as NodeJS.ErrnoException | null)?.code === 'ECONNRESET';
}
